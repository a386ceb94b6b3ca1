! docs/neighbor.md's example in Fortran, with the `mpi` module, or with `mpi_f08` where F08 is
! defined (MPI_Ineighbor_alltoall twice, completed by MPI_Waitany; then MPI_Neighbor_alltoall,
! MPI_Neighbor_allgather, MPI_Ineighbor_allgather completed by an MPI_Test loop and
! MPI_Ineighbor_alltoallv completed by MPI_Waitall): rank 0 names destinations (1, 1), rank 2 names
! (2, 1, 2), rank 1 lists sources (0, 2, 0); the k-th occurrence matches the k-th. Aborts on a
! wrong block or index; needs 3 processes. (No MPI_Waitany over null requests:
! MPICH 4.0.2's `mpi` module returns MPI_UNDEFINED + 1 there.)
program repeated_edges
#ifdef F08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: comm
  type(MPI_Request) :: requests(2)
#else
  use mpi
  implicit none
  integer :: comm, requests(2)
#endif
  integer :: ierr, rank, i, k, index, indegree, outdegree
  integer :: sources(3), destinations(3), send(3), received(3, 2), expected(3)
  integer :: gathered(3), ones(3), displs(3), mine
  logical :: seen(2), done
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  indegree = 0
  outdegree = 0
  expected = -1
  if (rank == 0) then
    outdegree = 2
    destinations(1:2) = (/1, 1/)
  else if (rank == 1) then
    indegree = 3
    sources = (/0, 2, 0/)
    expected = (/0, 201, 1/)
  else if (rank == 2) then
    indegree = 2
    sources(1:2) = (/2, 2/)
    outdegree = 3
    destinations = (/2, 1, 2/)
    expected(1:2) = (/200, 202/)
  end if
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indegree, sources, MPI_UNWEIGHTED, outdegree, destinations, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., comm, ierr)
  do i = 1, 3
    send(i) = 100 * rank + i - 1
  end do
  received = -1
  do k = 1, 2
    call MPI_Ineighbor_alltoall(send, 1, MPI_INTEGER, received(1, k), 1, MPI_INTEGER, comm, requests(k), ierr)
  end do
  seen = .false.
  do k = 1, 2
    call MPI_Waitany(2, requests, index, MPI_STATUS_IGNORE, ierr)
    if (index < 1 .or. index > 2) call fail('index out of range')
    if (seen(index)) call fail('index returned twice')
    seen(index) = .true.
  end do
  do k = 1, 2
    if (any(received(1:indegree, k) /= expected(1:indegree))) call fail('wrong block')
  end do
  received = -1
  call MPI_Neighbor_alltoall(send, 1, MPI_INTEGER, received(1, 1), 1, MPI_INTEGER, comm, ierr)
  if (any(received(1:indegree, 1) /= expected(1:indegree))) call fail('wrong block, blocking alltoall')
  gathered = -1
  call MPI_Neighbor_allgather(10 * rank + 7, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, comm, ierr)
  if (any(gathered(1:indegree) /= 10 * sources(1:indegree) + 7)) call fail('wrong block, allgather')
  gathered = -1
  mine = 10 * rank + 8  ! a variable: the buffer of a nonblocking call must outlive the call
  call MPI_Ineighbor_allgather(mine, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, comm, requests(1), ierr)
  done = .false.
  do while (.not. done)
    call MPI_Test(requests(1), done, MPI_STATUS_IGNORE, ierr)
  end do
  if (any(gathered(1:indegree) /= 10 * sources(1:indegree) + 8)) call fail('wrong block, ineighbor_allgather')
  ones = 1
  displs = (/0, 1, 2/)
  received = -1
  call MPI_Ineighbor_alltoallv(send, ones, displs, MPI_INTEGER, received(1, 2), ones, displs, MPI_INTEGER, comm, &
                               requests(1), ierr)
  call MPI_Ineighbor_alltoall(send, 1, MPI_INTEGER, received(1, 1), 1, MPI_INTEGER, comm, requests(2), ierr)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
  do k = 1, 2
    if (any(received(1:indegree, k) /= expected(1:indegree))) call fail('wrong block, waitall')
  end do
  call MPI_Comm_free(comm, ierr)
  if (rank == 0) print '(A)', 'repeated_edges: ok'
  call MPI_Finalize(ierr)
contains
  subroutine fail(what)
    character(*), intent(in) :: what
    print '(A,I0,2A)', 'repeated_edges: rank ', rank, ': ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine
end program
