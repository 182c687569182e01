"""Writing a file so that a reader never sees half of it: through a temporary file in the
same folder, renamed over the old one (os.replace is atomic within a file system). Two
writers at once leave one whole file, the later one's. One definition for every tool."""
import json
import os
import secrets


def write_bytes(path, data, mode=None, durable=False):
    """Writes `data` (bytes) to `path`. `mode` sets the file's permissions (else the umask
    decides, as for a plain open); `durable` flushes it to the disk before the rename, for
    files that cannot be rebuilt. Raises OSError, leaving no temporary file behind."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def write_text(path, text, **options):
    write_bytes(path, text.encode("utf-8"), **options)


def write_json(path, data, sort_keys=False, **options):
    """JSON with one-space indentation and a final newline."""
    write_text(path, json.dumps(data, indent=1, sort_keys=sort_keys) + "\n", **options)
