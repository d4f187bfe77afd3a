"""A test's name as one folder name (its repro folder, its coverage file): one to one, so that
two tests never share a folder, and readable. A name is ENTRY/BUNDLE: the first / becomes _, a
_ of ENTRY becomes %5f (so the first bare _ is always that /), letters, digits and - . @ + = ,
stay, and every other character is %XX, its UTF-8 bytes. Plain names keep the shape they always
had (isa/random_003 -> isa_random_003); `coll/x y` and `coll/x_y` become coll_x%20y and coll_x_y.
A result longer than MAX_BYTES is cut and ends ~HASH (sha256 of the name: ~ is otherwise %7e)."""
import hashlib

KEEP = "-.@+=,"
MAX_BYTES = 200  # of a folder name (file systems allow 255)


def _tokens(text, underscore):
    """text's characters as they appear in a folder name (underscore: a _ stays one)"""
    return [c if c.isalnum() or c in KEEP or (underscore and c == "_") else
            "".join(f"%{b:02x}" for b in c.encode("utf-8", "surrogatepass")) for c in text]


def safe_name(name):
    """the test name as one folder name (see above)"""
    entry, slash, bundle = name.partition("/")
    tokens = _tokens(entry, False) + (["_"] + _tokens(bundle, True) if slash else [])
    if "".join(tokens).strip(".") == "":  # "", "." and "..": no folder's name
        tokens = [f"%{ord(c):02x}" for c in name] or ["%"]
    out, size = [], 0
    for t in tokens:
        size += len(t.encode("utf-8"))
        if size > MAX_BYTES - 17:
            digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
            return "".join(out) + "~" + digest
        out.append(t)
    return "".join(out)
