"""A plain Connect Four for checking the bitboard kernel: a list of stones
per column, lines found by walking the grid cell by cell, and a naive
exhaustive search for forced wins. Independent of the kernel's bit tricks."""

from __future__ import annotations

COLUMNS, ROWS = 7, 6
DRAW = 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Grid:
    """A position: ``columns[c]`` lists the seats of column c's stones, bottom up."""

    def __init__(self) -> None:
        self.columns: list[list[int]] = [[] for _ in range(COLUMNS)]
        self.to_move = 0
        self.winner: int | None = None      # a seat, DRAW, or None while playing

    def copy(self) -> "Grid":
        g = Grid()
        g.columns = [list(c) for c in self.columns]
        g.to_move, g.winner = self.to_move, self.winner
        return g

    def at(self, column: int, row: int) -> int | None:
        if 0 <= column < COLUMNS and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def legal(self) -> list[int]:
        if self.winner is not None:
            return []
        return [c for c in range(COLUMNS) if len(self.columns[c]) < ROWS]

    def line_through(self, column: int, row: int, seat: int) -> bool:
        """Whether the stone of ``seat`` at (column, row) is in four in a row."""
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while self.at(c, r) == seat:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    def play(self, column: int) -> None:
        assert column in self.legal(), column
        seat = self.to_move
        self.columns[column].append(seat)
        if self.line_through(column, len(self.columns[column]) - 1, seat):
            self.winner = seat
        elif all(len(c) == ROWS for c in self.columns):
            self.winner = DRAW
        self.to_move = 1 - seat

    def after(self, column: int) -> "Grid":
        g = self.copy()
        g.play(column)
        return g

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        if self.winner == DRAW:
            return [0.5, 0.5]
        return [1.0 if s == self.winner else 0.0 for s in range(2)]

    def picture(self) -> str:
        """Top row first, ``x`` seat 0, ``o`` seat 1, ``.`` empty."""
        marks = {0: "x", 1: "o", None: "."}
        return "".join("".join(marks[self.at(c, r)] for c in range(COLUMNS)) + "\n"
                       for r in range(ROWS - 1, -1, -1))

    def wins_now(self, seat: int) -> list[int]:
        """Columns where a stone of ``seat`` would make four in a row."""
        out = []
        for c in self.legal():
            row = len(self.columns[c])
            self.columns[c].append(seat)
            if self.line_through(c, row, seat):
                out.append(c)
            self.columns[c].pop()
        return out


def replay(moves) -> Grid:
    g = Grid()
    for m in moves:
        g.play(m)
    return g


def forces_win(grid: Grid, seat: int, moves_left: int) -> bool:
    """Whether ``seat``, who has just moved into ``grid``, wins whatever the
    opponent does, making at most ``moves_left`` more moves of its own."""
    if grid.winner is not None:
        return grid.winner == seat
    if moves_left == 0:
        return False
    for reply in grid.legal():
        nxt = grid.after(reply)
        if nxt.winner is not None:              # the opponent won, or a draw
            return False
        if not any(forces_win(nxt.after(m), seat, moves_left - 1) for m in nxt.legal()):
            return False
    return True


def winning_moves(grid: Grid, moves: int) -> list[int]:
    """The player to move's moves that win within ``moves`` moves of its own
    (1: at once), against every defence."""
    seat = grid.to_move
    return [m for m in grid.legal() if forces_win(grid.after(m), seat, moves - 1)]
