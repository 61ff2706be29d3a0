"""Citable: answers and checks in which every [Author, Year] citation is verified."""

from __future__ import annotations

__all__: list[str] = []
