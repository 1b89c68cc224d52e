#!/usr/bin/env python3
"""transcript.py: runs the end-to-end transcripts (tests/e2e/<component>.t) and registers them with ctest.

A transcript holds cases: a title, a command line and what it must print. docs/testing.md describes
the format; in short:

    # A comment.
    host: -e prints                       <- title: the ctest name is "e2e: host: -e prints"
      $ rlx -e 'print(6 * 7)'             <- the command, run by bash from the source root
      42                                  <- the whole stdout, line by line (cram's way)
      stderr contains: something          <- or: stdout:/stderr: (whole), starts with:, ends with:,
      [1]                                    contains:, does not contain:; [N] is the exit status

Line suffixes: " (re)" a Python regular expression (. also matches a newline), " (esc)" escapes
(\\t, \\n, \\\\, \\xNN), " (no-eol)" no newline after the last line. Expected text may name
$RLX_TEST_TMP, $RLX_SOURCE_DIR and $RLX_TORCH_VERSION.

Usage:
    transcript.py [--build DIR] FILE.t [TITLE...]     run the cases (all, or those titled), say which failed
    transcript.py --list FILE.t...                    print the titles
    transcript.py --cmake OUT --features "F..." --settings JSON FILE.t...
                                                      write one add_test per case (tests/CMakeLists.txt)

The settings (the rlx binary, the source root, the scratch folder RLX_TEST_TMP, LibTorch's version,
the build's features) come from DIR/tests/transcript-settings.json, which the build writes; DIR is
build/ under the source root unless given. Exit status: 0 all passed, 1 a case failed, 2 a usage or
transcript error, 77 (or what `ctest: SKIP_RETURN_CODE N` names) the command asked to be skipped.
"""
import difflib
import json
import os
import re
import subprocess
import sys

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODES = {  # header -> (stream, mode)
    "stdout:": ("stdout", "whole"), "stderr:": ("stderr", "whole"),
    "stdout starts with:": ("stdout", "starts"), "stderr starts with:": ("stderr", "starts"),
    "stdout contains:": ("stdout", "contains"), "stderr contains:": ("stderr", "contains"),
    "stdout ends with:": ("stdout", "ends"), "stderr ends with:": ("stderr", "ends"),
    "stdout does not contain:": ("stdout", "lacks"), "stderr does not contain:": ("stderr", "lacks"),
}
FAILURES = {"whole": "{stream} is not what {where} says",
            "starts": "{stream} does not start as {where} says",
            "contains": "{stream} does not contain what {where} says",
            "ends": "{stream} does not end as {where} says",
            "lacks": "{stream} contains what {where} says it must not"}
HEADER_RE = re.compile(r"^(std(?:out|err)(?: starts with| contains| ends with| does not contain)?:)(?: (.*))?$")
SUFFIXES = (" (re)", " (esc)", " (no-eol)")
# Variables an expected line may name (the same names the command sees in its environment).
EXPECTED_VARS = ("RLX_TEST_TMP", "RLX_SOURCE_DIR", "RLX_TORCH_VERSION")


class TranscriptError(Exception):
    pass


class Line:
    """One expected line: its text and how to read it."""

    def __init__(self, raw, where):
        self.raw, self.where = raw, where
        self.kind, self.no_eol = "literal", False
        text = raw
        while True:
            for suffix in SUFFIXES:
                if text.endswith(suffix):
                    text = text[: -len(suffix)]
                    if suffix == " (no-eol)":
                        self.no_eol = True
                    elif self.kind != "literal":
                        raise TranscriptError(f"{where}: a line is either (re) or (esc), not both")
                    else:
                        self.kind = suffix.strip(" ()")
                    break
            else:
                break
        self.text = text

    def pattern(self, variables):
        if self.kind == "re":
            text = expand(self.text, variables, re.escape)
            try:
                re.compile(text, re.S)
            except re.error as e:
                raise TranscriptError(f"{self.where}: bad regular expression ({e}): {self.text}")
            return "(?:" + text + ")"
        text = unescape(self.text, self.where) if self.kind == "esc" else self.text
        return re.escape(expand(text, variables, lambda s: s))

    def matches(self, actual, variables, begins_mid=False, ends_mid=False):
        """Whether this line alone matches one actual line (for the diff shown on failure); a piece's
        first line may begin, and its last line end, in the middle of the actual line."""
        try:
            pattern = ("" if begins_mid else r"\A") + self.pattern(variables) + ("" if ends_mid else r"\Z")
            return re.search(pattern, actual, re.S) is not None
        except TranscriptError:
            return False


def expand(text, variables, quote):
    for name in EXPECTED_VARS:
        if "$" + name in text:
            if name not in variables:
                raise TranscriptError(f"${name} is used but not known (run through ctest, or give --build)")
            text = text.replace("$" + name, quote(variables[name]))
    return text


def unescape(text, where):
    out, i = [], 0
    simple = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\", "0": "\0", "e": "\x1b", "a": "\a"}
    while i < len(text):
        c = text[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1 : i + 2]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif nxt == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", text[i + 2 : i + 4]):
            out.append(chr(int(text[i + 2 : i + 4], 16)))
            i += 4
        else:
            raise TranscriptError(f"{where}: unknown escape \\{nxt} in an (esc) line (\\\\ is a backslash)")
    return "".join(out)


class Block:
    """One expectation on one stream: its mode and its lines."""

    def __init__(self, stream, mode, where):
        self.stream, self.mode, self.where, self.lines = stream, mode, where, []

    def regex(self, variables):
        body = "\n".join(line.pattern(variables) for line in self.lines)
        eol = "" if self.lines and self.lines[-1].no_eol else "\n"
        if self.mode == "whole":
            return r"\A" + (body + eol if self.lines else "") + r"\Z"
        if self.mode == "ends":
            return body + eol + r"\Z"
        if self.mode == "starts":
            return r"\A" + body
        return body  # contains, lacks

    def check(self, actual, variables):
        found = re.search(self.regex(variables), actual, re.S) is not None
        return found if self.mode != "lacks" else not found


class Case:
    def __init__(self, title, path, lineno):
        self.title, self.path, self.lineno = title, path, lineno
        self.command, self.exit, self.blocks, self.requires, self.ctest = None, 0, [], [], []

    @property
    def where(self):
        return f"{self.path}:{self.lineno}"

    def skip_code(self):
        words = " ".join(self.ctest).split()
        for i, w in enumerate(words[:-1]):
            if w == "SKIP_RETURN_CODE":
                return int(words[i + 1])
        return None

    def wanted(self, features):
        for req in self.requires:
            neg = req.startswith("not ")
            name = req[4:] if neg else req
            if (name in features) == neg:
                return False
        return True


def parse(path):
    """The cases of one transcript, in order."""
    cases, case, block, blanks, continuing = [], None, None, 0, False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, raw in enumerate(lines, 1):
        where = f"{path}:{n}"
        if raw.strip() == "":
            blanks += 1  # an empty expected line only when its block goes on below it
            continue
        if raw.startswith("#"):
            continue
        pending, blanks = blanks, 0
        if not raw.startswith(" "):
            case, block, continuing = Case(raw.rstrip(), path, n), None, False
            cases.append(case)
            continue
        if case is None:
            raise TranscriptError(f"{where}: an indented line before the first title")
        if not raw.startswith("  "):
            raise TranscriptError(f"{where}: indent a case's lines by two spaces")
        text = raw[2:]
        marked = text.endswith(SUFFIXES)  # an output line, whatever it starts with
        header = HEADER_RE.match(text)
        if header:
            if case.command is None:
                raise TranscriptError(f"{where}: an expectation before the command ('  $ ...')")
            stream, mode = MODES[header.group(1)]
            block, continuing = Block(stream, mode, where), False
            case.blocks.append(block)
            if header.group(2) is not None:
                block.lines.append(Line(header.group(2), where))
                block = None  # given on its own line: nothing below belongs to it
            continue
        if not marked and text.startswith("$ "):
            if case.command is not None:
                raise TranscriptError(f"{where}: a case runs one command (continue it with '> ')")
            case.command, block, continuing = text[2:], None, True
            continue
        if not marked and text.startswith("> ") and continuing:
            case.command += "\n" + text[2:]
            continue
        continuing = False
        if not marked and re.fullmatch(r"\[\d+\]", text):
            case.exit, block = int(text[1:-1]), None
            continue
        if not marked and text.startswith("requires:"):
            case.requires += [r.strip() for r in text[len("requires:"):].split(",") if r.strip()]
            block = None
            continue
        if not marked and text.startswith("ctest:"):
            case.ctest.append(text[len("ctest:"):].strip())
            block = None
            continue
        if case.command is None:
            raise TranscriptError(f"{where}: expected output before the command ('  $ ...')")
        if block is None:
            if case.blocks:
                raise TranscriptError(f"{where}: an output line outside a block (after [N], or after "
                                      "a one-line 'stdout ...: TEXT'): put it under a 'stdout:' or "
                                      "'stderr:' line")
            block = Block("stdout", "whole", where)  # cram's way: the lines under the command
            case.blocks.append(block)
        elif block.lines:
            block.lines += [Line("", where)] * pending
        block.lines.append(Line(text, where))
    titles = {}
    for c in cases:
        titles.setdefault(c.title, []).append(c)
    for title, same in titles.items():
        if len(same) > 1 and not all(c.requires for c in same):
            raise TranscriptError(f"{same[1].where}: a second case titled '{title}' (two cases may share a "
                                  "title only as variants for different builds, each with 'requires:')")
    for c in cases:
        if c.command is None:
            raise TranscriptError(f"{c.where}: case '{c.title}' has no command ('  $ ...')")
        for b in c.blocks:
            for line in b.lines:
                if line.no_eol and (line is not b.lines[-1] or b.mode not in ("whole", "ends")):
                    raise TranscriptError(f"{line.where}: (no-eol) belongs on the last line of a "
                                          "'stdout:'/'stderr:' or 'ends with:' block")
    return cases


def show(text):
    """Text for a terminal: escape sequences and other control characters made visible."""
    return "".join(c if c in "\t\n" or (ord(c) >= 32 and ord(c) != 127) else f"\\x{ord(c):02x}" for c in text)


def block_diff(block, actual, variables):
    """The lines of a unified diff between a block and the part of the output it was held against."""
    got = actual.split("\n")
    if got and got[-1] == "":
        got.pop()
    want = block.lines
    if block.mode == "starts":
        got = got[: len(want)]
    elif block.mode == "ends":
        got = got[-len(want):] if want else []
    elif block.mode in ("contains", "lacks") and len(got) > len(want):
        # the window of the output most like the expected lines
        best, best_ratio = 0, -1.0
        for i in range(len(got) - len(want) + 1):
            r = difflib.SequenceMatcher(None, "\n".join(x.text for x in want), "\n".join(got[i : i + len(want)])).ratio()
            if r > best_ratio:
                best, best_ratio = i, r
        got = got[best : best + len(want)]
    # An expected line that matches its actual line is shown as that line, so only misses differ.
    shown = []
    for i, line in enumerate(want):
        begins_mid = i == 0 and block.mode in ("contains", "lacks", "ends")
        ends_mid = i == len(want) - 1 and block.mode in ("contains", "lacks", "starts")
        if i < len(got) and line.matches(got[i], variables, begins_mid, ends_mid):
            shown.append(got[i])
        else:
            shown.append(line.raw)
    return [show(d) for d in difflib.unified_diff(shown, got, "expected", "actual", lineterm="", n=3)][2:]


def run_case(case, settings):
    variables = {"RLX_TEST_TMP": settings["test_tmp"], "RLX_SOURCE_DIR": settings["source_dir"]}
    if settings.get("torch_version"):
        variables["RLX_TORCH_VERSION"] = settings["torch_version"]
    env = dict(os.environ)
    env.update(variables)
    env["HOME"] = settings["test_tmp"]
    env["RLX"] = settings["rlx"]
    env["PATH"] = os.path.dirname(settings["rlx"]) + os.pathsep + env.get("PATH", "")
    os.makedirs(settings["test_tmp"], exist_ok=True)
    proc = subprocess.run(["bash", "-c", case.command], cwd=settings["source_dir"], env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = {"stdout": proc.stdout.decode("utf-8", "surrogateescape"),
           "stderr": proc.stderr.decode("utf-8", "surrogateescape")}
    cmd_shown = "\n".join(("  $ " if i == 0 else "  > ") + l for i, l in enumerate(case.command.split("\n")))
    skip = case.skip_code()
    if skip is not None and proc.returncode == skip and case.exit != skip:
        print(f"skipped (exit {skip}): {case.title}\n{cmd_shown}")
        for name in ("stdout", "stderr"):
            if out[name]:
                print(f"--- {name}:\n{show(out[name])}", end="" if out[name].endswith("\n") else "\n")
        return skip
    problems = []
    if proc.returncode != case.exit:
        problems.append(f"exit status {proc.returncode}, expected [{case.exit}]")
    for b in case.blocks:
        if not b.check(out[b.stream], variables):
            head = FAILURES[b.mode].format(stream=b.stream, where=b.where)
            diff = block_diff(b, out[b.stream], variables)
            problems.append(head + (" (- expected, + actual):\n" + "\n".join("  " + d for d in diff) if diff else ":\n"
                                    + "\n".join("  " + show(l.raw) for l in b.lines)))
    if not problems:
        print(f"ok: {case.title}\n{cmd_shown}")
        return 0
    print(f"FAIL: {case.title} ({case.where})\n{cmd_shown}")
    for p in problems:
        print(p)
    for name in ("stdout", "stderr"):
        text = out[name]
        count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        print(f"--- {name}, {count} lines" + (" (no newline at the end):" if text and not text.endswith("\n") else ":"))
        print(show(text), end="" if text.endswith("\n") or not text else "\n")
    return 1


def bracket(text):
    """A CMake bracket argument holding text as it is."""
    eq = "="
    while f"]{eq}]" in text:
        eq += "="
    return f"[{eq}[{text}]{eq}]"


def write_cmake(out, files, features, settings, python):
    lines = ["# Written by tests/e2e/transcript.py --cmake from the transcripts: one test per case."]
    for path in files:
        registered = set()
        for case in parse(path):
            if not case.wanted(features):
                continue
            if case.title in registered:
                raise TranscriptError(f"{case.where}: two cases titled '{case.title}' are both for this build")
            registered.add(case.title)
            for b in case.blocks:  # a bad regular expression fails here, at configure time
                b.regex({name: "/" + name.lower() for name in EXPECTED_VARS})
            name = bracket("e2e: " + case.title)
            lines.append(f"add_test(NAME {name} COMMAND {bracket(python)} {bracket(os.path.abspath(__file__))} "
                         f"--settings {bracket(settings)} {bracket(os.path.abspath(path))} {bracket(case.title)})")
            if case.ctest:
                lines.append(f"set_tests_properties({name} PROPERTIES {' '.join(case.ctest)})")
    text = "\n".join(lines) + "\n"
    try:
        with open(out, encoding="utf-8") as f:
            if f.read() == text:
                return  # unchanged: leave its time alone
    except FileNotFoundError:
        pass
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    args, opts = [], {}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--build", "--settings", "--cmake", "--features", "--python"):
            if i + 1 >= len(argv):
                raise TranscriptError(f"{a} needs a value")
            opts[a] = argv[i + 1]
            i += 2
        elif a == "--list":
            opts[a] = True
            i += 1
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
            i += 1
    if not args:
        raise TranscriptError("give a transcript (tests/e2e/NAME.t); --help says more")
    if "--list" in opts:
        for path in args:
            for case in parse(path):
                print(case.title)
        return 0
    if "--cmake" in opts:
        write_cmake(opts["--cmake"], args, set(opts.get("--features", "").split()), opts["--settings"],
                    opts.get("--python", sys.executable))
        return 0
    settings_path = opts.get("--settings") or os.path.join(
        opts.get("--build", os.path.join(SOURCE_ROOT, "build")), "tests", "transcript-settings.json")
    try:
        with open(settings_path, encoding="utf-8") as f:
            settings = json.load(f)
    except FileNotFoundError:
        raise TranscriptError(f"no {settings_path}: configure the build first (cmake -S . -B build), or give --build DIR")
    path, titles = args[0], args[1:]
    cases = parse(path)
    features = set(settings.get("features", []))
    if titles:
        chosen = []
        for t in titles:
            same = [c for c in cases if c.title == t]
            if not same:
                raise TranscriptError(f"{path} has no case titled '{t}' (renamed? configure again to update ctest's list)")
            chosen += [c for c in same if c.wanted(features)] or same[:1]
        cases = chosen
    failed, skipped, status = [], 0, 0
    for case in cases:
        if not case.wanted(features):
            print(f"not for this build ({', '.join(case.requires)}): {case.title}")
            continue
        rc = run_case(case, settings)
        if rc == 1:
            failed.append(case.title)
        elif rc != 0:
            skipped += 1
            status = status or rc
    if len(cases) > 1:
        print(f"{len(cases) - len(failed) - skipped} passed, {len(failed)} failed, {skipped} skipped")
        for t in failed:
            print(f"  failed: {t}")
    if failed:
        return 1
    return status if skipped == len(cases) else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except TranscriptError as e:
        print(f"transcript.py: {e}", file=sys.stderr)
        sys.exit(2)
