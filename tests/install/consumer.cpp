// SPDX-License-Identifier: BSD-3-Clause
// A C++ program that uses an installed cartcoll and asks for no C++ standard itself: the package
// must carry what its headers need. A ring with offsets {+1, -1}, blocking and persistent.
#include <cartcoll/cartcoll.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0, wrong = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    const auto owned = cartcoll::Communicator::create(MPI_COMM_WORLD, cartcoll::Grid({size}, {true}),
                                                      cartcoll::Offsets(1, {1, -1}));
    const auto cart = owned.view();
    const int rank = cart.rank();
    std::vector<int> send{10 * rank, 10 * rank + 1}, recv(2, -1);
    cartcoll::alltoall<int>(cart, send, recv);
    wrong += recv != std::vector<int>{10 * ((rank - 1 + size) % size), 10 * ((rank + 1) % size) + 1};
    cartcoll::Request request =
        cart.exchange_init(cartcoll::layout::alltoall(cart.degrees(), send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT));
    send = {-10 * rank, -10 * rank - 1};
    recv = {0, 0};
    request.start();
    request.wait();
    wrong += recv != std::vector<int>{-10 * ((rank - 1 + size) % size), -10 * ((rank + 1) % size) - 1};
  }
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::printf("C++ API: %d errors\n", wrong);
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
