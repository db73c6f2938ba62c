"""Type hints of the toadbase module (the bindings: tools/python/module.cpp)."""

import os
from typing import Any, Literal, Sequence, Union

import numpy as np
import numpy.typing as npt

Position = Union[str, dict[str, Any]]
"""A position string (1_TT--FF, LLL_RRR, 8_20_3_0.0.0.0), or a forest belief as a dict."""

Turn = Union[int, str, None]
"""The player to move for a bare board: 1 (Toads), 2 (Frogs), or None (the string says)."""

Path = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
"""A file name: str, bytes or os.PathLike (no NUL byte)."""

__version__: str
"""The version, as `toadbase --version` says it."""
VALUE_NAMES: tuple[str, str, str, str, str]
"""VALUE_NAMES[code]: 'none', 'win', 'lose', 'tie', 'draw'."""
NONE: int
WIN: int
LOSE: int
TIE: int
DRAW: int

class DatabaseError(Exception):
    """A database that is damaged, of a game or record type this toadbase does not know, or incomplete."""

class Tier:
    """One tier of a database: positions solved together."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def stored(self) -> int: ...
    def __len__(self) -> int: ...
    def records(self) -> npt.NDArray[np.uint8]: ...
    def values(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]: ...
    def position(self, index: int) -> str: ...

class Database:
    """An open position database (read-only); a context manager."""

    def __init__(self, path: Path, cache_mb: int = 256) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    @property
    def game(self) -> str: ...
    @property
    def parameters(self) -> dict[str, Any]: ...
    @property
    def info(self) -> dict[str, Any]: ...
    @property
    def start(self) -> str | None: ...
    @property
    def win_lose(self) -> bool: ...
    def query(self, position: Position, turn: Turn = None) -> dict[str, Any]: ...
    def get_query(self, position: Position, turn: Turn = None) -> dict[str, Any] | None: ...
    def value(self, position: Position, turn: Turn = None) -> tuple[str, int] | dict[str, Any]: ...
    def cgt(self, board: str) -> dict[str, Any]: ...
    def find(
        self,
        value: str | None = None,
        *,
        outcome: str | None = None,
        kind: str | None = None,
        temperature_at_least: str | int | None = None,
        mean: str | int | None = None,
        limit: int = 10,
    ) -> dict[str, Any]: ...
    def get_value(self, position: Position, turn: Turn = None) -> tuple[str, int] | dict[str, Any] | None: ...
    def values(
        self,
        positions: Union[Sequence[str], npt.NDArray[np.str_], npt.NDArray[np.bytes_], npt.NDArray[np.object_]],
        turn: Turn = None,
        *,
        threads: int = 0,
        errors: Literal["raise", "mark"] = "raise",
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16]]: ...
    def tiers(self) -> list[Tier]: ...
    def analyze(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Database": ...
    def __exit__(self, *args: object) -> None: ...

def open(path: Path, *, cache_mb: int = 256) -> Database: ...
def solve(
    game: str,
    *,
    db: Path,
    threads: int = 0,
    zstd_level: int = 3,
    quiet: bool = False,
    repair: bool = False,
    **parameters: Union[int, str],
) -> dict[str, Any]: ...
def games() -> list[dict[str, Any]]: ...
