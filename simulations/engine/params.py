"""Parameters: how a simulation declares what it accepts, and how values are checked.

A simulation's PARAMS is a tuple of plain dicts (JSON-able, so the page can draw a form):

    {"name": "lease", "label": "Lease (s)", "type": "float", "default": 5.0,
     "min": 0.5, "max": 600.0, "help": "..."}

type is "int" or "float" (with min and max, inclusive), "choice" (with "choices", a list of
strings, and "labels", {choice: words for a form}) or "bool". Values may arrive as strings (from a URL or a chapter's embed): "5",
"0.3", "true". Every bad value raises ParamError naming the field and what is allowed.
"""
import math
import re

# A number as a reader types it: ASCII digits, an optional sign, point and exponent (and the
# words inf and nan, refused later with the range). Python's float() takes more: "1_0" as 10,
# "٣" and full-width "３" as 3. None of that is a setting.
PLAIN_NUMBER = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*|\s*[+-]?(inf|infinity|nan)\s*",
                          re.ASCII | re.IGNORECASE)
MAX_ECHO = 40   # characters of a bad value repeated in an error message


class ParamError(ValueError):
    """A parameter (or an action's argument) is not acceptable. `field` names it.

    `problems` lists every bad parameter found at once (validate() checks them all), this
    error first; for a single problem it is [self]."""

    def __init__(self, field, message, label=None):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message
        self.label = label   # the field's words for a reader ("Lease (s)"), when it has some
        self.problems = [self]

    @property
    def words(self):
        """The error as a form says it beside the field: "Lease (s): must be from ..."."""
        return f"{self.label or self.field}: {self.message}"


# Every spec also says whether the setting may change while the simulation runs ("live": it is
# sent as act("set") then, and the simulation takes it from that moment on); any other change
# starts a new run. The page's form is drawn from these specs alone.
def integer(name, label, default, minimum, maximum, help, live=False):
    return {"name": name, "label": label, "type": "int", "default": default,
            "min": minimum, "max": maximum, "help": help, "live": live}


def number(name, label, default, minimum, maximum, help, live=False):
    return {"name": name, "label": label, "type": "float", "default": float(default),
            "min": float(minimum), "max": float(maximum), "help": help, "live": live}


def choice(name, label, default, choices, help, labels=None, live=False):
    """`labels`: {choice: the words a form shows for it}, one for every choice (the value
    itself, e.g. "ack-after-work", stays what URLs and chapters use)."""
    labels = dict(labels or {option: option for option in choices})
    if set(labels) != set(choices):
        raise ValueError(f"{name}: labels must name every choice exactly once")
    return {"name": name, "label": label, "type": "choice", "default": default,
            "choices": list(choices), "labels": labels, "help": help, "live": live}


def boolean(name, label, default, help, live=False):
    return {"name": name, "label": label, "type": "bool", "default": default, "help": help,
            "live": live}


def seed_param():
    return integer("seed", "Seed", 0, 0, 2**31 - 1,
                   "Picks the run: the same seed and parameters replay exactly.")


def check_help(specs):
    """Every help text in the reader's words: it may not name a choice by its value where the
    page shows the reader a label ("lease-too-short:" beside a menu that says "Lease too short:
    A is slow"). A value counts as named when it is followed by a colon, or stands as a word
    its own label does not contain. Raises ValueError naming the help and the value; called
    for every simulation's PARAMS when its class is made (simulation.py)."""
    for spec in specs:
        for option, label in spec.get("labels", {}).items():
            if option == label:
                continue
            alone = re.compile(rf"(?<![\w-]){re.escape(option)}(?![\w-])")
            for other in specs:
                said = other["help"]
                if f"{option}:" in said or (alone.search(said) and option not in label.lower()):
                    raise ValueError(f"{other['name']}'s help names the choice {option!r} of "
                                     f"{spec['name']}; say it as the page does: {label!r}")


TRUE_WORDS = {"true", "yes", "on", "1"}
FALSE_WORDS = {"false", "no", "off", "0"}


def convert(spec, value):
    """Return `value` converted to the spec's type and checked, or raise ParamError (with the
    spec's label, so the page can say it in the field's own words)."""
    try:
        return _convert(spec, value)
    except ParamError as error:
        error.label = error.label or spec["label"]
        raise


def _convert(spec, value):
    name, kind = spec["name"], spec["type"]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower() if isinstance(value, (str, int)) else None
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ParamError(name, f"must be true or false, got {_echo(repr(value))}")
    if kind == "choice":
        if isinstance(value, str) and value.strip() in spec["choices"]:
            return value.strip()
        raise ParamError(name, f"must be one of {', '.join(spec['choices'])}; got {_echo(repr(value))}")
    return _convert_number(spec, value)


def _convert_number(spec, value):
    name, whole = spec["name"], spec["type"] == "int"
    kind_words = "a whole number" if whole else "a number"
    allowed = f"from {_show(spec['min'])} to {_show(spec['max'])}"
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ParamError(name, f"must be {kind_words} {allowed}, got {_echo(repr(value))}")
    if isinstance(value, str) and not PLAIN_NUMBER.fullmatch(value):
        raise ParamError(name, f"must be {kind_words} {allowed}, got {_echo(repr(value))}")
    if isinstance(value, int) and not spec["min"] <= value <= spec["max"]:
        # compared as an int: 10**400 is out of range, not an OverflowError from float()
        raise ParamError(name, f"must be {allowed}, got {_echo(show_number(value))}")
    number = float(value) if isinstance(value, str) else value
    if not math.isfinite(number):
        raise ParamError(name, f"must be {kind_words} {allowed}, got {_echo(repr(value))}")
    if whole:
        if number != int(number):
            typed = repr(value) if isinstance(value, str) else show_number(value)
            raise ParamError(name, f"must be {kind_words} {allowed}, got {_echo(typed)}")
        number = int(number)
    else:
        number = float(number)
    if not spec["min"] <= number <= spec["max"]:
        # the value as the reader typed it: float("1e-400") is 0 and int(float("1e23")) is
        # 99999999999999991611392, neither of which the reader wrote
        typed = value.strip() if isinstance(value, str) else show_number(value)
        raise ParamError(name, f"must be {allowed}, got {_echo(typed)}")
    return number


def _echo(text):
    """A bad value as the reader gave it, cut short if it is long ("nothing" for '')."""
    if text == "''":
        return "nothing"
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO - 1] + "…"


def seconds(field, value):
    """A time in seconds given to run() or the bridge: a finite number (an int or a float),
    else ParamError naming `field`."""
    if isinstance(value, str) and PLAIN_NUMBER.fullmatch(value):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParamError(field, f"must be a number of seconds, got {_echo(repr(value))}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ParamError(field, f"must be a finite number of seconds, got {_echo(show_number(value))}")
    return number


def _show(number):
    """A bound of a range in prose: 5,000 or 0.5."""
    return f"{number:,}" if isinstance(number, int) else show_number(number)


def show_number(number):
    """A number (int or float) as a reader would type it, with no float noise: 2, not 2.0;
    0.3, not 0.30000000000000004 (at most 15 significant digits, which a float always
    holds exactly); 1e-7 and 1e23 rather than 1e-07 and 1e+23; no thousands separators."""
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise TypeError(f"show_number takes an int or a float, got {number!r}")
    if isinstance(number, int):
        return str(number)
    if number == 0:
        return "0"   # -0.0 too
    text = f"{number:.15g}"
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}e{int(exponent)}" if e else text


def validate(specs, values):
    """Check `values` (a dict, or None) against `specs`; return every parameter's value.

    Raises ParamError for an unknown name or a bad value: the first problem, with every
    problem (unknown names first, then bad values in the specs' order) in its `problems`."""
    if values is None:
        values = {}
    if not isinstance(values, dict):
        raise ParamError("params", f"must be a mapping of name to value, got {values!r}")
    known = {spec["name"]: spec for spec in specs}
    problems = [ParamError(str(name), "unknown parameter; this simulation takes " + ", ".join(known))
                for name in values if name not in known]
    checked = {}
    for name, spec in known.items():
        try:
            checked[name] = convert(spec, values.get(name, spec["default"]))
        except ParamError as error:
            problems.append(error)
    if problems:
        problems[0].problems = problems
        raise problems[0]
    return checked
