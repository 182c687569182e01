"""The benchmark report's data: the tables the demos write (common/course/table.hpp) and
the seeds' tables (tools/course report-seeds), read, written and formatted in one place.

A table is one JSON file, <name>.json:
    {"table": name, "title": "...",
     "columns": [{"key", "heading", "unit", "kind", "precision"}, ...],
     "rows": [[cell, ...], ...]}
kind is text, right_text, integer, number or scientific; a cell is a string, a number, or
null for "no value" (printed "-"). A table where some row has no figures because the
student's function behind it is not right (common/course/demo_results.hpp) also has
    "notes": [null or "not implemented yet: heavy_on_gpu", ...]     one entry per row
which the report shows as a last column.

The report's data folder (tools/course report writes it, tools/course report-render reads it):
    run.json             the run: command, times, versions, each exercise's status
    device/device.json   tools/course_tools/report/device_probe.cu's table
    NN_slug/*.json       each exercise's tables
    seeds/*.json         the seed systems' measurements, seeds/status.json what imported
    logs/NN_slug.txt     each demo's printed output
"""
import json
import os

from course_tools.student import atomic_write


class Table:
    def __init__(self, name, title, columns, rows, notes=None):
        self.name, self.title, self.columns, self.rows = name, title, columns, rows
        self.notes = notes if notes and any(notes) else None

    @property
    def keys(self):
        return [column["key"] for column in self.columns]

    def column(self, key):
        """The values of one column, in row order."""
        index = self.keys.index(key)
        return [row[index] for row in self.rows]

    def records(self):
        """The rows as dictionaries keyed by column key."""
        return [dict(zip(self.keys, row)) for row in self.rows]

    def find_all(self, label_prefix):
        """The rows whose first cell starts with label_prefix, as dictionaries."""
        return [record for record in self.records()
                if isinstance(record[self.keys[0]], str) and record[self.keys[0]].startswith(label_prefix)]

    def find(self, label_prefix):
        """The first row whose first cell starts with label_prefix, as a dictionary."""
        found = self.find_all(label_prefix)
        return found[0] if found else None

    def formatted_rows(self):
        return [[format_cell(cell, column) for cell, column in zip(row, self.columns)]
                for row in self.rows]

    def shown(self):
        """(columns, formatted rows) as a report shows them: with a last column "note"
        where some row has one (why its figures are missing)."""
        if not self.notes:
            return self.columns, self.formatted_rows()
        columns = self.columns + [column("note", "note", "text")]
        return columns, [cells + [note or ""] for cells, note in zip(self.formatted_rows(), self.notes)]

    def to_json(self):
        data = {"table": self.name, "title": self.title, "columns": self.columns,
                "rows": self.rows}
        if self.notes:
            data["notes"] = self.notes
        return data


def column(key, heading, kind="number", precision=0, unit=""):
    return {"key": key, "heading": heading, "unit": unit, "kind": kind, "precision": precision}


def measurement_columns(kernel_key, with_ceiling_gbps=False):
    """The columns of a kernel measured by some system (the seeds' table, and the table
    that sets them beside the course's C++): what, by whom, how, size, time, figures."""
    columns = [column(kernel_key, "kernel", "text"),
               column("system", "system", "text"),
               column("how", "how", "text"),
               column("n", "n", "integer"),
               column("ms", "ms", precision=4),
               column("gbps", "GB/s", precision=1),
               column("ceiling_percent", "% of copy", precision=1, unit="%")]
    if with_ceiling_gbps:
        columns.append(column("ceiling_gbps", "ceiling GB/s", precision=1))
    return columns + [column("samples_per_s", "samples/s", "scientific", 3)]


def format_cell(cell, column):
    """A cell as the demos print it: numbers to the column's precision, with its unit."""
    if cell is None:
        return "-"
    kind = column.get("kind", "text")
    if isinstance(cell, str) or kind in ("text", "right_text"):
        return str(cell)
    # As table.hpp prints: an integer cell as an integer, whatever its column.
    if isinstance(cell, int) or kind == "integer":
        return str(int(cell))
    precision = int(column.get("precision", 0))
    if kind == "scientific":
        return f"{cell:.{precision}e}"
    return f"{cell:.{precision}f}{column.get('unit', '')}"


def read_table(path):
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return Table(data["table"], data.get("title", data["table"]), data["columns"], data["rows"],
                 data.get("notes"))


def read_tables(folder):
    """{name: Table} of every table in folder (none where the folder does not exist)."""
    tables = {}
    if not os.path.isdir(folder):
        return tables
    for entry in sorted(os.listdir(folder)):
        if entry.endswith(".json") and entry != "status.json":
            table = read_table(os.path.join(folder, entry))
            tables[table.name] = table
    return tables


def write_json(path, data):
    """Never half a file (atomic_write.py)."""
    atomic_write.write_json(path, data)


def write_table(folder, table):
    write_json(os.path.join(folder, table.name + ".json"), table.to_json())


def read_json(path, default=None):
    if not os.path.exists(path):
        return default
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def number_suffix(name, prefix):
    """The integer after prefix in a table name (gaussian_67108864 -> 67108864), or None."""
    rest = name[len(prefix):] if name.startswith(prefix) else ""
    return int(rest) if rest.isdigit() else None


def largest(tables, prefix):
    """Of the tables named prefix<N>, the one of the largest N (the demos' largest size)."""
    sized = [(number_suffix(name, prefix), table) for name, table in tables.items()]
    sized = [(n, table) for n, table in sized if n is not None]
    return max(sized, key=lambda pair: pair[0])[1] if sized else None
