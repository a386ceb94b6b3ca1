! SPDX-License-Identifier: BSD-3-Clause
! Every Fortran entry point of libcartcoll_mpi, in one unmodified MPI program built three ways:
! `include 'mpif.h'` (MPIFH), `use mpi` (the default) or `use mpi_f08` (F08). The persistent
! collectives are MPI 4's MPI_Neighbor_*_init, or Open MPI's MPIX_ forms where MPIX_PERSISTENT is
! defined (with mpif-ext.h, mpi_ext or mpi_f08_ext).
!
! The graph, at any p >= 3 processes: rank r sends to (r+1, r+2, r+1, r) and receives from
! (r-1, r-2, r, r-1), so edge r-1 -> r is repeated and its k-th occurrence matches the k-th:
! receive block i is the source's send block matched(i) = (1, 2, 4, 3). Element e of send block j
! of rank s in call c is value(c, s, j, e); blocks have different sizes and gaps between them, and
! every element of every receive buffer (gaps included) is checked after every call.
!
! It runs the 5 collectives blocking (alltoallw also from MPI_BOTTOM), nonblocking and persistent;
! completes them with MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome, MPI_Test, MPI_Testall,
! MPI_Testany, MPI_Testsome and MPI_Request_get_status, with ordinary point-to-point requests in
! the same arrays, and reads every status; starts persistent requests with MPI_Start and
! MPI_Startall and frees them; builds a second graph with MPI_Dist_graph_create. Where
! CARTCOLL_TEST_EXPECT is "layer" (not "native") it also checks the empty statuses the layer gives
! collectives and one error of each family through MPI_ERRORS_RETURN on every rank (the
! constructors, each form of collective, a communicator without topology, the request functions,
! MPI_ERR_IN_STATUS), and the data of a full call after them. Aborts with "entry_points: rank R:
! what" on the first wrong value; rank 0 prints "entry_points: ok" at the end.
#if defined(F08)
#define COMM_T type(MPI_Comm)
#define REQUEST_T type(MPI_Request)
#define DATATYPE_T type(MPI_Datatype)
#define INFO_T type(MPI_Info)
#define STATUS_T(x) type(MPI_Status) :: x
#define STATUSES_T(x, n) type(MPI_Status) :: x(n)
#define STATUS_AT(x, i) x(i)
#define FIELD(x, f) x%f
#define FIELD_AT(x, i, f) x(i)%f
#else
#define COMM_T integer
#define REQUEST_T integer
#define DATATYPE_T integer
#define INFO_T integer
#define STATUS_T(x) integer :: x(MPI_STATUS_SIZE)
#define STATUSES_T(x, n) integer :: x(MPI_STATUS_SIZE, n)
#define STATUS_AT(x, i) x(:, i)
#define FIELD(x, f) x(f)
#define FIELD_AT(x, i, f) x(f, i)
#endif
#if defined(MPIX_PERSISTENT)
#define ALLGATHER_INIT MPIX_Neighbor_allgather_init
#define ALLGATHERV_INIT MPIX_Neighbor_allgatherv_init
#define ALLTOALL_INIT MPIX_Neighbor_alltoall_init
#define ALLTOALLV_INIT MPIX_Neighbor_alltoallv_init
#define ALLTOALLW_INIT MPIX_Neighbor_alltoallw_init
#else
#define ALLGATHER_INIT MPI_Neighbor_allgather_init
#define ALLGATHERV_INIT MPI_Neighbor_allgatherv_init
#define ALLTOALL_INIT MPI_Neighbor_alltoall_init
#define ALLTOALLV_INIT MPI_Neighbor_alltoallv_init
#define ALLTOALLW_INIT MPI_Neighbor_alltoallw_init
#endif
program entry_points
#if defined(F08)
  use mpi_f08
#if defined(MPIX_PERSISTENT)
  use mpi_f08_ext
#endif
#elif !defined(MPIFH)
  use mpi
#if defined(MPIX_PERSISTENT)
  use mpi_ext
#endif
#endif
  implicit none
#if defined(MPIFH)
  include 'mpif.h'
#if defined(MPIX_PERSISTENT)
  include 'mpif-ext.h'
#endif
#endif
  ! The collective kinds; the slots of buffers and argument arrays that calls in flight use.
  integer, parameter :: allgather = 1, allgatherv = 2, alltoall = 3, alltoallv = 4, alltoallw = 5
  integer, parameter :: slots = 5, many = 8, length = 40, degree = 4, tag = 7
  integer, parameter :: matched(degree) = (/1, 2, 4, 3/)
  integer :: ierr, rank, p, i, indegree, outdegree
  integer :: sources(degree), destinations(degree)
  logical :: layer, weighted
  COMM_T :: comm
  REQUEST_T :: requests(many), persistent(slots)
  STATUS_T(status)
  STATUSES_T(statuses, many)
  ! Per slot: the buffers, the argument arrays, the call's kind and number.
  integer, asynchronous :: send(length, slots), received(length, slots), point(3), got(3)
  integer :: scounts(degree, slots), sdispls(degree, slots), rcounts(degree, slots), rdispls(degree, slots)
  integer(MPI_ADDRESS_KIND) :: sbytes(degree, slots), rbytes(degree, slots)
  DATATYPE_T :: types(degree)
  integer :: kind_of(slots), call_of(slots)
  ! The indices an "any" or "some" function returned.
  logical :: seen(many)
  integer :: indices(many)
  character(16) :: expect

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  if (p < 3) call fail('needs 3 or more processes')
  call get_environment_variable('CARTCOLL_TEST_EXPECT', expect)
  layer = expect /= 'native'
  do i = 1, degree
    types(i) = MPI_INTEGER
  end do
  destinations = modulo(rank + (/1, 2, 1, 0/), p)
  sources = modulo(rank - (/1, 2, 0, 1/), p)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, sources, MPI_UNWEIGHTED, degree, destinations, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., comm, ierr)
  call MPI_Dist_graph_neighbors_count(comm, indegree, outdegree, weighted, ierr)
  if (indegree /= degree .or. outdegree /= degree .or. weighted) call fail('MPI_UNWEIGHTED made a weighted graph')

  call blocking_calls()
  call nonblocking_calls()
  call persistent_calls()
  if (layer) call errors()
  call created_graph()

  call MPI_Comm_free(comm, ierr)
  if (rank == 0) print '(A)', 'entry_points: ok'
  call MPI_Finalize(ierr)

contains

  integer function value(c, sender, block, element)
    integer, intent(in) :: c, sender, block, element
    value = 1000000 * c + 10000 * sender + 100 * block + element
  end function

  ! How many elements rank s contributes to an allgatherv: different on neighbors.
  integer function gathered_count(s)
    integer, intent(in) :: s
    gathered_count = 1 + modulo(s, 3)
  end function

  ! Slot s gets call c of `kind`: its argument arrays, its send buffer, a receive buffer of -1. The
  ! uniform kinds' blocks are 2 elements, 2 apart; the others' are of different sizes with gaps.
  subroutine prepare(s, kind, c)
    integer, intent(in) :: s, kind, c
    integer :: j, e, block
    kind_of(s) = kind
    call_of(s) = c
    do j = 1, degree
      scounts(j, s) = 2
      rcounts(j, s) = 2
      sdispls(j, s) = 2 * (j - 1)
      rdispls(j, s) = 2 * (j - 1)
      if (kind == allgatherv .or. kind == alltoallv .or. kind == alltoallw) then
        sdispls(j, s) = 5 * (j - 1)
        rdispls(j, s) = 5 * (j - 1) + 1
      end if
      if (kind == allgatherv) then
        scounts(j, s) = gathered_count(rank)
        rcounts(j, s) = gathered_count(sources(j))
      else if (kind == alltoallv .or. kind == alltoallw) then
        scounts(j, s) = j
        rcounts(j, s) = matched(j)
      end if
    end do
    sbytes(:, s) = storage_size(0) / 8 * sdispls(:, s)
    rbytes(:, s) = storage_size(0) / 8 * rdispls(:, s)
    send(:, s) = -2
    received(:, s) = -1
    do j = 1, degree
      block = j
      if (kind == allgather .or. kind == allgatherv) block = 0
      do e = 1, scounts(j, s)
        send(sdispls(j, s) + e, s) = value(c, rank, block, e)
      end do
      if (kind == allgather .or. kind == allgatherv) exit
    end do
  end subroutine

  ! Slot s's receive buffer holds exactly what its call should have delivered, gaps untouched.
  subroutine verify(s, what)
    integer, intent(in) :: s
    character(*), intent(in) :: what
    integer :: expected(length), i, e, block
    expected = -1
    do i = 1, degree
      block = matched(i)
      if (kind_of(s) == allgather .or. kind_of(s) == allgatherv) block = 0
      do e = 1, rcounts(i, s)
        expected(rdispls(i, s) + e) = value(call_of(s), sources(i), block, e)
      end do
    end do
    if (any(received(:, s) /= expected)) call fail('wrong data: ' // what)
  end subroutine

  ! The empty status, which the layer gives a completed collective. (MPI leaves its MPI_SOURCE and
  ! MPI_TAG undefined, MPI 4.1 section 6.12, and MPI_ERROR is set only with MPI_ERR_IN_STATUS.)
  subroutine expect_empty(status, what)
    STATUS_T(status)
    character(*), intent(in) :: what
    integer :: count
    logical :: cancelled
    if (.not. layer) return
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    call MPI_Test_cancelled(status, cancelled, ierr)
    if (FIELD(status, MPI_SOURCE) /= MPI_ANY_SOURCE .or. FIELD(status, MPI_TAG) /= MPI_ANY_TAG .or. count /= 0 .or. &
        cancelled) call fail('not the empty status: ' // what)
  end subroutine

  ! Statuses no call wrote are noticed; no index is seen yet.
  subroutine spoil()
    integer :: i
    do i = 1, many
      FIELD_AT(statuses, i, MPI_SOURCE) = -5
      FIELD_AT(statuses, i, MPI_TAG) = -5
      FIELD_AT(statuses, i, MPI_ERROR) = -5
    end do
    FIELD(status, MPI_SOURCE) = -5
    FIELD(status, MPI_TAG) = -5
    FIELD(status, MPI_ERROR) = -5
  end subroutine

  ! An index from an "any" or "some" function: in 1..n, and returned once.
  subroutine take(index, n, what)
    integer, intent(in) :: index, n
    character(*), intent(in) :: what
    if (index < 1 .or. index > n) call fail('index out of range: ' // what)
    if (seen(index)) call fail('index returned twice: ' // what)
    seen(index) = .true.
  end subroutine

  subroutine expect_null(n, what)
    integer, intent(in) :: n
    character(*), intent(in) :: what
    integer :: i
    do i = 1, n
      if (requests(i) /= MPI_REQUEST_NULL) call fail('a completed request is not MPI_REQUEST_NULL: ' // what)
    end do
  end subroutine

  ! Inactive persistent requests stay what they are.
  subroutine expect_persistent(what)
    character(*), intent(in) :: what
    integer :: i
    do i = 1, slots
      if (requests(i) /= persistent(i)) call fail('a persistent request changed: ' // what)
    end do
  end subroutine

  subroutine expect_class(code, expected, what)
    integer, intent(in) :: code, expected
    character(*), intent(in) :: what
    integer :: class
    class = -1
    call MPI_Error_class(code, class, ierr)
    if (class /= expected) then
      print '(A,I0,3A,I0,A,I0)', 'entry_points: rank ', rank, ': ', what, ': error class ', class, ', not ', expected
      call fail('wrong error class')
    end if
  end subroutine

  ! A point-to-point message of 3 elements around the ring of ranks, in the same arrays as the
  ! collectives, received into room for `room` of them (fewer is MPI_ERR_TRUNCATE).
  subroutine post_ring(receive, send_request, room)
    REQUEST_T, intent(out) :: receive, send_request
    integer, intent(in) :: room
    got = -1
    point = (/value(9, rank, 1, 1), value(9, rank, 1, 2), value(9, rank, 1, 3)/)
    call MPI_Irecv(got, room, MPI_INTEGER, modulo(rank - 1, p), tag, MPI_COMM_WORLD, receive, ierr)
    call MPI_Isend(point, 3, MPI_INTEGER, modulo(rank + 1, p), tag, MPI_COMM_WORLD, send_request, ierr)
  end subroutine

  subroutine verify_ring(status)
    STATUS_T(status)
    integer :: count, from
    from = modulo(rank - 1, p)
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    if (FIELD(status, MPI_SOURCE) /= from .or. FIELD(status, MPI_TAG) /= tag .or. count /= 3) call fail('point-to-point status')
    if (any(got /= (/value(9, from, 1, 1), value(9, from, 1, 2), value(9, from, 1, 3)/))) call fail('point-to-point data')
  end subroutine

  ! The blocking collectives; alltoallw a second time from MPI_BOTTOM, with absolute displacements.
  subroutine blocking_calls()
    integer :: j
    call prepare(1, allgather, 101)
    call MPI_Neighbor_allgather(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, ierr)
    call verify(1, 'MPI_Neighbor_allgather')
    call prepare(1, allgatherv, 102)
    call MPI_Neighbor_allgatherv(send(:, 1), scounts(1, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), rdispls(:, 1), &
                                 MPI_INTEGER, comm, ierr)
    call verify(1, 'MPI_Neighbor_allgatherv')
    call prepare(1, alltoall, 103)
    call MPI_Neighbor_alltoall(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, ierr)
    call verify(1, 'MPI_Neighbor_alltoall')
    call prepare(1, alltoallv, 104)
    call MPI_Neighbor_alltoallv(send(:, 1), scounts(:, 1), sdispls(:, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), &
                                rdispls(:, 1), MPI_INTEGER, comm, ierr)
    call verify(1, 'MPI_Neighbor_alltoallv')
    call prepare(1, alltoallw, 105)
    call MPI_Neighbor_alltoallw(send(:, 1), scounts(:, 1), sbytes(:, 1), types, received(:, 1), rcounts(:, 1), &
                                rbytes(:, 1), types, comm, ierr)
    call verify(1, 'MPI_Neighbor_alltoallw')
    call prepare(1, alltoallw, 106)
    do j = 1, degree
      call MPI_Get_address(send(sdispls(j, 1) + 1, 1), sbytes(j, 1), ierr)
      call MPI_Get_address(received(rdispls(j, 1) + 1, 1), rbytes(j, 1), ierr)
    end do
    call MPI_Neighbor_alltoallw(MPI_BOTTOM, scounts(:, 1), sbytes(:, 1), types, MPI_BOTTOM, rcounts(:, 1), &
                                rbytes(:, 1), types, comm, ierr)
    call verify(1, 'MPI_Neighbor_alltoallw from MPI_BOTTOM')
  end subroutine

  ! Each nonblocking collective twice, completed by the wait and test functions.
  subroutine nonblocking_calls()
    integer :: k, outcount, index
    logical :: flag
    ! MPI_Wait
    call prepare(1, allgather, 201)
    call MPI_Ineighbor_allgather(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, requests(1), ierr)
    call spoil()
    call MPI_Wait(requests(1), status, ierr)
    call expect_null(1, 'MPI_Wait')
    call expect_empty(status, 'MPI_Wait')
    call verify(1, 'MPI_Ineighbor_allgather, MPI_Wait')
    ! MPI_Waitall, with a point-to-point pair
    call prepare(1, allgatherv, 202)
    call prepare(2, alltoall, 203)
    call MPI_Ineighbor_allgatherv(send(:, 1), scounts(1, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), rdispls(:, 1), &
                                  MPI_INTEGER, comm, requests(1), ierr)
    call MPI_Ineighbor_alltoall(send(:, 2), 2, MPI_INTEGER, received(:, 2), 2, MPI_INTEGER, comm, requests(2), ierr)
    call post_ring(requests(3), requests(4), 3)
    call spoil()
    call MPI_Waitall(4, requests, statuses, ierr)
    call expect_null(4, 'MPI_Waitall')
    call expect_empty(STATUS_AT(statuses, 1), 'MPI_Waitall')
    call expect_empty(STATUS_AT(statuses, 2), 'MPI_Waitall')
    call verify_ring(STATUS_AT(statuses, 3))
    call verify(1, 'MPI_Ineighbor_allgatherv, MPI_Waitall')
    call verify(2, 'MPI_Ineighbor_alltoall, MPI_Waitall')
    ! MPI_Waitsome
    call prepare(1, alltoallv, 204)
    call prepare(2, alltoallw, 205)
    call MPI_Ineighbor_alltoallv(send(:, 1), scounts(:, 1), sdispls(:, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), &
                                 rdispls(:, 1), MPI_INTEGER, comm, requests(1), ierr)
    call MPI_Ineighbor_alltoallw(send(:, 2), scounts(:, 2), sbytes(:, 2), types, received(:, 2), rcounts(:, 2), &
                                 rbytes(:, 2), types, comm, requests(2), ierr)
    seen = .false.
    do while (.not. all(seen(1:2)))
      call spoil()
      call MPI_Waitsome(2, requests, outcount, indices, statuses, ierr)
      if (outcount == MPI_UNDEFINED .or. outcount < 1) call fail('MPI_Waitsome completed nothing')
      do k = 1, outcount
        call take(indices(k), 2, 'MPI_Waitsome')
        call expect_empty(STATUS_AT(statuses, k), 'MPI_Waitsome')
      end do
    end do
    call expect_null(2, 'MPI_Waitsome')
    call verify(1, 'MPI_Ineighbor_alltoallv, MPI_Waitsome')
    call verify(2, 'MPI_Ineighbor_alltoallw, MPI_Waitsome')
    ! MPI_Waitany
    call prepare(1, alltoall, 206)
    call prepare(2, allgather, 207)
    call prepare(3, alltoallw, 208)
    call MPI_Ineighbor_alltoall(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, requests(1), ierr)
    call MPI_Ineighbor_allgather(send(:, 2), 2, MPI_INTEGER, received(:, 2), 2, MPI_INTEGER, comm, requests(2), ierr)
    call MPI_Ineighbor_alltoallw(send(:, 3), scounts(:, 3), sbytes(:, 3), types, received(:, 3), rcounts(:, 3), &
                                 rbytes(:, 3), types, comm, requests(3), ierr)
    seen = .false.
    do k = 1, 3
      call spoil()
      call MPI_Waitany(3, requests, index, status, ierr)
      call take(index, 3, 'MPI_Waitany')
      call expect_empty(status, 'MPI_Waitany')
    end do
    call expect_null(3, 'MPI_Waitany')
    call verify(1, 'MPI_Ineighbor_alltoall, MPI_Waitany')
    call verify(2, 'MPI_Ineighbor_allgather, MPI_Waitany')
    call verify(3, 'MPI_Ineighbor_alltoallw, MPI_Waitany')
    ! MPI_Test
    call prepare(1, alltoallv, 209)
    call MPI_Ineighbor_alltoallv(send(:, 1), scounts(:, 1), sdispls(:, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), &
                                 rdispls(:, 1), MPI_INTEGER, comm, requests(1), ierr)
    flag = .false.
    do while (.not. flag)
      call spoil()
      call MPI_Test(requests(1), flag, status, ierr)
    end do
    call expect_null(1, 'MPI_Test')
    call expect_empty(status, 'MPI_Test')
    call verify(1, 'MPI_Ineighbor_alltoallv, MPI_Test')
    ! MPI_Request_get_status: completion without freeing; MPI_Wait frees
    call prepare(1, allgatherv, 210)
    call MPI_Ineighbor_allgatherv(send(:, 1), scounts(1, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), rdispls(:, 1), &
                                  MPI_INTEGER, comm, requests(1), ierr)
    flag = .false.
    do while (.not. flag)
      call spoil()
      call MPI_Request_get_status(requests(1), flag, status, ierr)
    end do
    if (requests(1) == MPI_REQUEST_NULL) call fail('MPI_Request_get_status freed the request')
    call expect_empty(status, 'MPI_Request_get_status')
    call MPI_Wait(requests(1), MPI_STATUS_IGNORE, ierr)
    call expect_null(1, 'MPI_Wait after MPI_Request_get_status')
    call verify(1, 'MPI_Ineighbor_allgatherv, MPI_Request_get_status')
  end subroutine

  ! The persistent collectives, started three times (MPI_Start, MPI_Startall) and completed by the
  ! test functions and MPI_Waitall, then freed.
  subroutine persistent_calls()
    integer :: round, s, k, outcount, index
    logical :: flag
    do s = 1, slots
      call prepare(s, s, 300 + s)
    end do
    call ALLGATHER_INIT(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, MPI_INFO_NULL, &
                        persistent(1), ierr)
    call ALLGATHERV_INIT(send(:, 2), scounts(1, 2), MPI_INTEGER, received(:, 2), rcounts(:, 2), rdispls(:, 2), &
                         MPI_INTEGER, comm, MPI_INFO_NULL, persistent(2), ierr)
    call ALLTOALL_INIT(send(:, 3), 2, MPI_INTEGER, received(:, 3), 2, MPI_INTEGER, comm, MPI_INFO_NULL, &
                       persistent(3), ierr)
    call ALLTOALLV_INIT(send(:, 4), scounts(:, 4), sdispls(:, 4), MPI_INTEGER, received(:, 4), rcounts(:, 4), &
                        rdispls(:, 4), MPI_INTEGER, comm, MPI_INFO_NULL, persistent(4), ierr)
    call ALLTOALLW_INIT(send(:, 5), scounts(:, 5), sbytes(:, 5), types, received(:, 5), rcounts(:, 5), &
                        rbytes(:, 5), types, comm, MPI_INFO_NULL, persistent(5), ierr)
    ! An inactive persistent request is complete, with the empty status.
    call spoil()
    call MPI_Request_get_status(persistent(1), flag, status, ierr)
    if (.not. flag) call fail('MPI_Request_get_status: an inactive request is not complete')
    call expect_empty(status, 'MPI_Request_get_status, inactive')
    do round = 1, 3
      if (round > 1) then
        do s = 1, slots
          call prepare(s, s, 300 + 10 * round + s)
        end do
      end if
      requests(1:slots) = persistent
      seen = .false.
      if (round == 1) then
        ! MPI_Start and MPI_Startall; MPI_Testall
        call MPI_Start(requests(1), ierr)
        call MPI_Startall(slots - 1, requests(2:slots), ierr)
        flag = .false.
        do while (.not. flag)
          call spoil()
          call MPI_Testall(slots, requests, flag, statuses, ierr)
        end do
        do k = 1, slots
          call expect_empty(STATUS_AT(statuses, k), 'MPI_Testall')
        end do
      else if (round == 2) then
        ! MPI_Startall; MPI_Testsome with a point-to-point pair
        call MPI_Startall(slots, requests, ierr)
        call post_ring(requests(slots + 1), requests(slots + 2), 3)
        do while (.not. all(seen(1:slots + 2)))
          call spoil()
          call MPI_Testsome(slots + 2, requests, outcount, indices, statuses, ierr)
          if (outcount == MPI_UNDEFINED) call fail('MPI_Testsome: no active request left')
          do k = 1, outcount
            call take(indices(k), slots + 2, 'MPI_Testsome')
            if (indices(k) <= slots) call expect_empty(STATUS_AT(statuses, k), 'MPI_Testsome')
            if (indices(k) == slots + 1) call verify_ring(STATUS_AT(statuses, k))
          end do
        end do
        if (requests(slots + 1) /= MPI_REQUEST_NULL .or. requests(slots + 2) /= MPI_REQUEST_NULL) &
          call fail('MPI_Testsome: a point-to-point request is not MPI_REQUEST_NULL')
      else
        ! MPI_Start each; MPI_Testany, which passes over inactive requests
        do s = 1, slots
          call MPI_Start(requests(s), ierr)
        end do
        do while (.not. all(seen(1:slots)))
          call spoil()
          call MPI_Testany(slots, requests, index, flag, status, ierr)
          if (flag .and. index == MPI_UNDEFINED) call fail('MPI_Testany: no active request left')
          if (flag) call take(index, slots, 'MPI_Testany')
          if (flag) call expect_empty(status, 'MPI_Testany')
        end do
        call MPI_Waitall(slots, requests, MPI_STATUSES_IGNORE, ierr)
      end if
      call expect_persistent('round')
      call verify(1, 'MPIX?_Neighbor_allgather_init')
      call verify(2, 'MPIX?_Neighbor_allgatherv_init')
      call verify(3, 'MPIX?_Neighbor_alltoall_init')
      call verify(4, 'MPIX?_Neighbor_alltoallv_init')
      call verify(5, 'MPIX?_Neighbor_alltoallw_init')
    end do
    do s = 1, slots
      call MPI_Request_free(requests(s), ierr)
    end do
    call expect_null(slots, 'MPI_Request_free')
  end subroutine

  ! One error of each family, through MPI_ERRORS_RETURN with MPI's class on every rank; then a full call.
  subroutine errors()
    INFO_T :: info
    COMM_T :: graph
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    ! The constructors: the layer reads the info at creation.
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'cartcoll_algorithm', 'no-such-algorithm', ierr)
    call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, sources, MPI_UNWEIGHTED, degree, destinations, &
                                        MPI_UNWEIGHTED, info, .false., graph, ierr)
    call expect_class(ierr, MPI_ERR_INFO_VALUE, 'MPI_Dist_graph_create_adjacent with an unknown algorithm')
    call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, (/rank/), (/2/), modulo(rank + (/1, 2/), p), MPI_UNWEIGHTED, &
                               info, .false., graph, ierr)
    call expect_class(ierr, MPI_ERR_INFO_VALUE, 'MPI_Dist_graph_create with an unknown algorithm')
    call MPI_Info_free(info, ierr)
    call prepare(1, allgather, 401)
    call MPI_Neighbor_allgather(send(:, 1), -1, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, ierr)
    call expect_class(ierr, MPI_ERR_COUNT, 'MPI_Neighbor_allgather with count -1')
    call MPI_Ineighbor_allgatherv(send(:, 1), 2, MPI_DATATYPE_NULL, received(:, 1), rcounts(:, 1), rdispls(:, 1), &
                                  MPI_INTEGER, comm, requests(1), ierr)
    call expect_class(ierr, MPI_ERR_TYPE, 'MPI_Ineighbor_allgatherv with MPI_DATATYPE_NULL')
#if defined(OPEN_MPI)
    ! Open MPI's bindings pass their MPI_IN_PLACE as the address of a sentinel, which the layer
    ! recognises. (MPICH's hand a neighborhood collective theirs as an ordinary buffer.)
    call MPI_Ineighbor_alltoall(MPI_IN_PLACE, 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, requests(1), ierr)
    call expect_class(ierr, MPI_ERR_BUFFER, 'MPI_Ineighbor_alltoall from MPI_IN_PLACE')
#endif
    call prepare(1, alltoallv, 401)
    rcounts(3, 1) = -1
    call ALLTOALLV_INIT(send(:, 1), scounts(:, 1), sdispls(:, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), &
                        rdispls(:, 1), MPI_INTEGER, comm, MPI_INFO_NULL, requests(1), ierr)
    call expect_class(ierr, MPI_ERR_COUNT, 'MPIX?_Neighbor_alltoallv_init with a receive count -1')
    call prepare(1, alltoallw, 401)
#if defined(F08) && !defined(OPEN_MPI)
    ! MPICH 4.0.2's mpi_f08 sizes alltoallw's datatype arrays by MPI_Dist_graph_neighbors_count,
    ! which fails on a communicator without topology, and copies that many: it crashes before the
    ! C function. Its alltoall reaches the layer.
    call MPI_Neighbor_alltoall(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
#else
    call MPI_Neighbor_alltoallw(send(:, 1), scounts(:, 1), sbytes(:, 1), types, received(:, 1), rcounts(:, 1), &
                                rbytes(:, 1), types, MPI_COMM_WORLD, ierr)
#endif
    call expect_class(ierr, MPI_ERR_TOPOLOGY, 'a neighborhood collective on MPI_COMM_WORLD')
    ! Cancelling a collective is erroneous; the request stays and completes.
    call prepare(1, alltoall, 402)
    call MPI_Ineighbor_alltoall(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, requests(1), ierr)
    call MPI_Cancel(requests(1), ierr)
    call expect_class(ierr, MPI_ERR_REQUEST, 'MPI_Cancel of a collective')
    call spoil()
    call MPI_Wait(requests(1), status, ierr)
    call expect_class(ierr, MPI_SUCCESS, 'MPI_Wait after MPI_Cancel')
    call expect_null(1, 'MPI_Wait after MPI_Cancel')
    call expect_empty(status, 'MPI_Wait after MPI_Cancel')
    call verify(1, 'MPI_Ineighbor_alltoall after MPI_Cancel')
    ! Freeing an active persistent request is erroneous; it stays, completes, and is freed.
    call prepare(2, alltoall, 403)
    call ALLTOALL_INIT(send(:, 2), 2, MPI_INTEGER, received(:, 2), 2, MPI_INTEGER, comm, MPI_INFO_NULL, &
                       requests(1), ierr)
    call MPI_Start(requests(1), ierr)
    call MPI_Request_free(requests(1), ierr)
    call expect_class(ierr, MPI_ERR_REQUEST, 'MPI_Request_free of an active request')
    if (requests(1) == MPI_REQUEST_NULL) call fail('MPI_Request_free of an active request freed it')
    call spoil()
    call MPI_Wait(requests(1), status, ierr)
    call expect_class(ierr, MPI_SUCCESS, 'MPI_Wait after MPI_Request_free')
    call expect_empty(status, 'MPI_Wait after MPI_Request_free')
    call verify(2, 'MPIX?_Neighbor_alltoall_init after MPI_Request_free')
    call MPI_Request_free(requests(1), ierr)
    call expect_class(ierr, MPI_SUCCESS, 'MPI_Request_free of an inactive request')
    call expect_null(1, 'MPI_Request_free')
    ! One failed request in an array: MPI_ERR_IN_STATUS, and each status names its own error.
    call prepare(1, alltoall, 404)
    call MPI_Ineighbor_alltoall(send(:, 1), 2, MPI_INTEGER, received(:, 1), 2, MPI_INTEGER, comm, requests(1), ierr)
    call post_ring(requests(2), requests(3), 2)
    call spoil()
    call MPI_Waitall(3, requests, statuses, ierr)
    call expect_class(ierr, MPI_ERR_IN_STATUS, 'MPI_Waitall with a truncated message')
    call expect_class(FIELD_AT(statuses, 1, MPI_ERROR), MPI_SUCCESS, 'MPI_Waitall: the collective''s status')
    call expect_class(FIELD_AT(statuses, 2, MPI_ERROR), MPI_ERR_TRUNCATE, 'MPI_Waitall: the truncated message''s status')
    call expect_class(FIELD_AT(statuses, 3, MPI_ERROR), MPI_SUCCESS, 'MPI_Waitall: the send''s status')
    if (requests(1) /= MPI_REQUEST_NULL) call fail('MPI_Waitall: a completed request is not MPI_REQUEST_NULL')
    call verify(1, 'MPI_Ineighbor_alltoall, MPI_Waitall with a truncated message')
    ! After the errors, a full call.
    call prepare(1, alltoallv, 405)
    call MPI_Neighbor_alltoallv(send(:, 1), scounts(:, 1), sdispls(:, 1), MPI_INTEGER, received(:, 1), rcounts(:, 1), &
                                rdispls(:, 1), MPI_INTEGER, comm, ierr)
    call expect_class(ierr, MPI_SUCCESS, 'MPI_Neighbor_alltoallv after the errors')
    call verify(1, 'MPI_Neighbor_alltoallv after the errors')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL, ierr)
  end subroutine

  ! MPI_Dist_graph_create: rank r names its edges to r+1 and r+2; MPI orders the neighbors, so
  ! block values name the destination, and the receiver checks them in MPI_Dist_graph_neighbors'
  ! order.
  subroutine created_graph()
    COMM_T :: graph
    integer :: from(2), to(2), weights(2), outgoing(4), incoming(4), expected(4), i
    call MPI_Dist_graph_create(MPI_COMM_WORLD, 1, (/rank/), (/2/), modulo(rank + (/1, 2/), p), MPI_UNWEIGHTED, &
                               MPI_INFO_NULL, .false., graph, ierr)
    call MPI_Dist_graph_neighbors_count(graph, indegree, outdegree, weighted, ierr)
    if (indegree /= 2 .or. outdegree /= 2 .or. weighted) call fail('MPI_Dist_graph_create: degrees or weights')
    call MPI_Dist_graph_neighbors(graph, 2, from, weights, 2, to, weights, ierr)
    do i = 1, 2
      outgoing(2 * i - 1:2 * i) = (/value(501, rank, to(i), 1), value(501, rank, to(i), 2)/)
      expected(2 * i - 1:2 * i) = (/value(501, from(i), rank, 1), value(501, from(i), rank, 2)/)
    end do
    incoming = -1
    call MPI_Neighbor_alltoall(outgoing, 2, MPI_INTEGER, incoming, 2, MPI_INTEGER, graph, ierr)
    if (any(incoming /= expected)) call fail('wrong data: MPI_Neighbor_alltoall on MPI_Dist_graph_create''s graph')
    call MPI_Comm_free(graph, ierr)
  end subroutine

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(A,I0,2A)', 'entry_points: rank ', rank, ': ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine
end program
