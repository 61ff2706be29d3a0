"""Units the number reader knows (pure): each written form, folded, with its canonical unit
and the factor to it ("ms" -> ("s", 1e-3)), so that 2,000 ms and 2 s are one value; and the
forms whose case decides what they are ("Mb/s" megabits, "MB/s" megabytes, "mM" millimolar)."""

from __future__ import annotations

__all__ = ["CAPS_UNITS", "CASED_UNITS", "UNITS", "is_unit", "offset_of", "unit_of"]

# unit (folded) -> (canonical unit, factor)
UNITS: dict[str, tuple[str, float]] = {}


def _add(canonical: str, factor: float, *names: str) -> None:
    for name in names:
        UNITS[name] = (canonical, factor)


_add("%", 1.0, "%", "percent", "per cent", "percentage", "pct")
_add("x", 1.0, "x", "times", "fold", "×")
_add("s", 1.0, "s", "sec", "secs", "second", "seconds")
_add("s", 1e-3, "ms", "millisecond", "milliseconds")
_add("s", 1e-6, "us", "µs", "μs", "microsecond", "microseconds")
_add("s", 1e-9, "ns", "nanosecond", "nanoseconds")
_add("s", 60.0, "min", "mins", "minute", "minutes")
_add("s", 3600.0, "h", "hr", "hrs", "hour", "hours")
_add("s", 86400.0, "day", "days")
_add("s", 604800.0, "week", "weeks")
_YEAR = 365.25 * 86400.0  # a Julian year: "18 months" is "1.5 years", "3 decades" "30 years"
_add("s", _YEAR / 12, "month", "months")
_add("s", _YEAR, "year", "years", "yr", "yrs", "y")  # "11.44 × 10^9 y"
_add("s", 10 * _YEAR, "decade", "decades")
_add("s", 100 * _YEAR, "century", "centuries")
_add("s", 1e3 * _YEAR, "kyr")
_add("s", 1e6 * _YEAR, "myr")
_add("s", 1e9 * _YEAR, "gyr")
_add("B", 1.0, "byte", "bytes")
_add("B", 1e3, "kb", "kbyte", "kbytes", "kilobyte", "kilobytes")
_add("B", 1e6, "mb", "mbyte", "mbytes", "megabyte", "megabytes")
_add("B", 1e9, "gb", "gbyte", "gbytes", "gigabyte", "gigabytes")
_add("B", 1e12, "tb", "terabyte", "terabytes")
_add("B", 1e15, "pb", "petabyte", "petabytes")
_add("bit", 1.0, "bit", "bits")
_add("m", 1.0, "m", "meter", "meters", "metre", "metres")
_add("m", 1e3, "km", "kilometer", "kilometers", "kilometre", "kilometres")
_add("m", 1e-2, "cm", "centimeter", "centimeters")
_add("m", 1e-3, "mm", "millimeter", "millimeters")
_add("m", 1e-6, "um", "µm", "μm", "micron", "microns", "micrometer", "micrometers")
_add("m", 1e-9, "nm", "nanometer", "nanometers")
_add("pc", 1.0, "pc", "parsec", "parsecs")
_add("pc", 1e3, "kpc")
_add("pc", 1e6, "mpc")
_add("g", 1.0, "g", "gram", "grams")
_add("g", 1e3, "kg", "kilogram", "kilograms")
_add("g", 1e-3, "mg", "milligram", "milligrams")
_add("g", 1e-6, "µg", "μg", "ug", "microgram", "micrograms")
_add("g", 1e-9, "ng", "nanogram", "nanograms")
for _prefix, _factor in (("", 1.0), ("k", 1e3), ("m", 1e6), ("g", 1e9)):
    _add("Hz", _factor, _prefix + "hz")
    _add("eV", _factor, _prefix + "ev")
_add("°C", 1.0, "°c", "˚c", "degc", "celsius", "kelvin", "kelvins")  # kelvin: see offset_of
_add("L", 1.0, "l", "liter", "liters", "litre", "litres")
_add("L", 1e-3, "ml", "milliliter", "milliliters", "millilitre", "millilitres")
_add("L", 1e-6, "µl", "μl", "ul", "microliter", "microliters", "microlitre", "microlitres")
for _prefix, _factor in (("", 1.0), ("k", 1e3), ("m", 1e6), ("g", 1e9), ("t", 1e12)):
    _add("bit/s", _factor, _prefix + "bps")
_add("s", 1.0, "sekunde", "sekunden")  # German: the corpus has a German paper
_add("s", 60.0, "minuten")
_add("s", 3600.0, "stunde", "stunden")
# Short units written with capitals; any other short capitalised word is not a unit ("US").
CAPS_UNITS = frozenset(
    "kb mb gb tb pb hz khz mhz ghz ev kev mev gev °c l ml µl μl kbps mbps gbps tbps kyr myr gyr".split()
)
# Forms read as written, before folding: a rate's bits and bytes differ by case alone, and a
# molar concentration is no millimetre ("200 mM" is 0.2 M; a bare "M" after a number is more
# often a million, so it is not read as molar).
CASED_UNITS: dict[str, tuple[str, float]] = {}
for _prefix, _factor in (("", 1.0), ("k", 1e3), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12)):
    CASED_UNITS[_prefix + "B/s"] = ("B/s", _factor)
    CASED_UNITS[_prefix + "b/s"] = ("bit/s", _factor)
    CASED_UNITS[_prefix + "bit/s"] = ("bit/s", _factor)
for _prefix, _factor in (("m", 1e-3), ("µ", 1e-6), ("μ", 1e-6), ("u", 1e-6), ("n", 1e-9)):
    CASED_UNITS[_prefix + "M"] = ("M", _factor)
# "298 K" is 24.85 °C (a capital K after a space; "10K images" is ten thousand, the reader's)
CASED_UNITS["K"] = ("°C", 1.0)
_KELVIN_OFFSET = -273.15


def is_unit(word: str) -> bool:
    """Whether ``word`` is a unit the number reader knows ("MHz", "mL", "Sekunden")."""
    return word in CASED_UNITS or word.lower() in UNITS


def unit_of(written: str) -> tuple[str, float] | None:
    """The canonical unit and factor of a unit word as written after a number, or None: "ms" ->
    ("s", 1e-3), "GB/s" -> ("B/s", 1e9); a short capitalised word is a unit only when units are
    written so ("35 US dollars" is no microsecond, "10 MHz" is a frequency)."""
    if written in CASED_UNITS:
        return CASED_UNITS[written]
    word = written.lower()
    if len(word) <= 3 and written != word and word not in CAPS_UNITS:
        return None
    return UNITS.get(word)


def offset_of(written: str) -> float:
    """What is added to a value in the unit ``written`` after its factor: kelvin to Celsius."""
    return _KELVIN_OFFSET if written == "K" or written.lower() in ("kelvin", "kelvins") else 0.0
