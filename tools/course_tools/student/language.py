"""The language of what a student reads, English or French (issue 41), chosen as the checks
choose it (common/course/check/message.hpp): COURSE_LANG=fr or en, else the first locale
variable set (LC_ALL, LC_MESSAGES, LANG) starting with "fr" for French, else English.
`make check-NN LANG=fr` passes LANG=fr on as COURSE_LANG (Makefile).

Each module keeps its messages in one table, each entry an English and a French format
string with the same {fields}:

    SAY = language.Messages(__name__, {
        "skipped": ("SKIPPED: check {number} {reason}", "SKIPPED: correcteur {number} {reason}"),
    })
    print(SAY("skipped", number="03", reason=why))

Write the French with an ordinary space where French puts one (before : ; ! ?, inside « »):
the table puts the no-break space there, as message.hpp does. course.check_messages
(tests/tools/test_check_messages.py) fails on an entry whose French is missing, a copy of the
English, or has other fields.
"""
import os
import re

FRENCH, ENGLISH = "fr", "en"
# Every table, for the test that holds them to their French.
TABLES = []

NO_BREAK_SPACE = "\u00a0"  # before a colon, inside « », between a number and its unit
NARROW_NO_BREAK_SPACE = "\u202f"  # before ; ! ?


def chosen(environ=None):
    """"fr" or "en", from the environment (see above)."""
    environ = os.environ if environ is None else environ
    explicit = environ.get("COURSE_LANG", "")
    if explicit:
        return FRENCH if explicit.startswith("fr") else ENGLISH
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        locale = environ.get(variable, "")
        if locale:
            return FRENCH if locale.startswith("fr") else ENGLISH
    return ENGLISH


# The units a message puts after a number (or a {field} holding one), as message.hpp's list.
BEFORE_UNIT = re.compile(r"(?<=[\d}]) (?=(?:%|ms|s|Mio|Gio|MiB|GiB|GB/s|octets)(?![\w/]))")


def french_typography(text):
    """The no-break spaces of French where the author wrote an ordinary space."""
    text = BEFORE_UNIT.sub(NO_BREAK_SPACE, text)
    for sign in ";!?":
        text = text.replace(" " + sign, NARROW_NO_BREAK_SPACE + sign)
    return (text.replace(" :", NO_BREAK_SPACE + ":").replace("« ", "«" + NO_BREAK_SPACE)
            .replace(" »", NO_BREAK_SPACE + "»"))


class Messages:
    """One module's messages: key -> (English, French) format strings."""

    def __init__(self, module, table):
        self.module = module
        self.table = {key: (english, french_typography(french)) for key, (english, french) in table.items()}
        TABLES.append(self)

    def __call__(self, key, lang=None, **fields):
        """The message `key` in `lang` (by default the environment's), its fields filled."""
        english, french = self.table[key]
        return (french if (lang or chosen()) == FRENCH else english).format(**fields)
