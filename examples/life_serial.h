/* SPDX-License-Identifier: BSD-3-Clause */
/* The Game of Life on a whole board, serially: the oracle of life.c and life.cpp in --check mode, and
 * the place where both take the initial board from. C99 and C++.
 *
 * The board is rows x cols cells, row-major, 1 alive and 0 dead. A periodic dimension wraps; beyond
 * a non-periodic one there are no cells. A cell's neighbors are the cells at the 8 offsets around it,
 * each counted once per offset: on a torus 2 cells wide the cell to the left is also the cell to the
 * right and counts twice, on a torus 1 cell wide a cell is its own neighbor (as in the distributed
 * version, where each offset is one edge of the graph). */
#ifndef CARTCOLL_EXAMPLES_LIFE_SERIAL_H
#define CARTCOLL_EXAMPLES_LIFE_SERIAL_H

/* The initial board: a pattern that depends on the position, so that a cell summed from the wrong
 * neighbors changes the outcome, and that keeps changing for 12 generations on a 4x4 grid (mesh,
 * torus or cylinder). */
static inline short life_initially_alive(int row, int col) {
  return (short)((row + col * 6 + row * col * 2) % 6 < 3);
}

/* The position `index + step` along a dimension of `size` cells, or -1 beyond a non-periodic end. */
static inline int life_neighbor_index(int index, int step, int size, int periodic) {
  const int moved = index + step;
  if (moved >= 0 && moved < size) return moved;
  return periodic ? ((moved % size) + size) % size : -1;
}

/* The live neighbors of every cell: live[] from board[] (distinct arrays of rows * cols cells). */
static inline void life_serial_count(const short *board, short *live, int rows, int cols, const int periods[2]) {
  for (int row = 0; row < rows; ++row)
    for (int col = 0; col < cols; ++col) {
      short sum = 0;
      for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
          const int r = life_neighbor_index(row, dr, rows, periods[0]);
          const int c = life_neighbor_index(col, dc, cols, periods[1]);
          if ((dr != 0 || dc != 0) && r >= 0 && c >= 0) sum = (short)(sum + board[r * cols + c]);
        }
      live[row * cols + col] = sum;
    }
}

/* One generation by the rule of Listing 7 of Träff, Hunold, Mercier and Holmes, given the counts of
 * life_serial_count: fewer than 2 or more than 3 live neighbors die, 3 bring a dead cell to life, 2
 * keep the state. In place. */
static inline void life_serial_step(short *board, const short *live, int cells) {
  for (int i = 0; i < cells; ++i)
    if (live[i] < 2 || live[i] > 3)
      board[i] = 0;
    else if (live[i] == 3)
      board[i] = 1;
}

#endif /* CARTCOLL_EXAMPLES_LIFE_SERIAL_H */
