#!/usr/bin/env python3
"""Writes extdisplay's manual pages from the argument parser's own help.

    scripts/man-from-help.py BINARY OUTDIR

BINARY is a built extdisplay; its `--experimental-dump-help` JSON (swift-argument-parser's description of every
command, option and flag, the text `--help` prints) becomes extdisplay.1 and one extdisplay-COMMAND.1 per command.
The sections only prose can give (keys, files, environment, exit status) are appended from packaging/man/PAGE.extra
when that file exists. swift-argument-parser's generate-manual plugin builds a debug extdisplay of its own to do
the same; this reads the binary being installed, so the pages always match it.
"""

import json
import os
import subprocess
import sys

EXTRA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "packaging", "man")


def escape(text):
    """Roff-safe text: backslashes written as \\e, a leading dot or quote guarded, hyphens of options kept."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith(".") or text.startswith("'"):
        text = "\\&" + text
    return text


def paragraphs(text):
    """Discussion text as roff: blank lines separate paragraphs, indented lines are kept as they are."""
    out = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        if all(line.startswith("  ") for line in lines if line.strip()):
            out.append(".PP\n.nf\n" + "\n".join(escape(line) for line in lines) + "\n.fi")
        else:
            out.append(".PP\n" + "\n".join(escape(line) for line in lines))
    return "\n".join(out)


def names(argument):
    """`-h`, `--help`: every name of an option or flag."""
    spelled = []
    for name in argument.get("names", []):
        prefix = "-" if name["kind"] in ("short", "longWithSingleDash") else "--"
        spelled.append(prefix + name["name"])
    return spelled


def synopsis_item(argument):
    if argument["kind"] == "positional":
        item = "\\fI" + escape(argument["valueName"].upper()) + "\\fR"
    else:
        first = names(argument)[0]
        item = "\\fB" + escape(first) + "\\fR"
        if argument["kind"] == "option":
            item += " \\fI" + escape(argument["valueName"]) + "\\fR"
    if argument.get("isRepeating"):
        item += " ..."
    return "[" + item + "]" if argument.get("isOptional") else item


def visible(arguments):
    return [a for a in arguments if a.get("shouldDisplay", True)]


def page(command, path, version):
    """One manual page for `command`, whose words from the top are `path`."""
    title = "-".join(path)
    arguments = visible(command.get("arguments", []))
    lines = [
        '.TH "%s" "1" "" "extdisplay %s" "User Commands"' % (title.upper(), version),
        ".SH NAME",
        "%s \\- %s" % (escape(title), escape(command.get("abstract", ""))),
        ".SH SYNOPSIS",
        ".B %s" % escape(" ".join(path)),
    ]
    subcommands = [c for c in command.get("subcommands", [])
                   if c.get("shouldDisplay", True) and c["commandName"] != "help"]
    if subcommands:
        lines.append("\\fICOMMAND\\fR")
    lines += [synopsis_item(a) for a in arguments if a["kind"] != "positional"]
    lines += [synopsis_item(a) for a in arguments if a["kind"] == "positional"]
    lines.append(".SH DESCRIPTION")
    lines.append(escape(command.get("abstract", "")))
    if command.get("discussion"):
        lines.append(paragraphs(command["discussion"]))
    if subcommands:
        lines.append(".SH COMMANDS")
        for sub in subcommands:
            lines += [".TP", "\\fB%s\\fR" % escape(sub["commandName"]), escape(sub.get("abstract", "")),
                      "See \\fB%s\\fR(1)." % escape("-".join(path + [sub["commandName"]]))]
    if arguments:
        lines.append(".SH OPTIONS")
        for argument in arguments:
            if argument["kind"] == "positional":
                head = "\\fI" + escape(argument["valueName"].upper()) + "\\fR"
            else:
                head = ", ".join("\\fB" + escape(n) + "\\fR" for n in names(argument))
                if argument["kind"] == "option":
                    head += " \\fI" + escape(argument["valueName"]) + "\\fR"
            text = escape(argument.get("abstract", ""))
            if argument.get("allValues") and argument["kind"] == "option":
                text += " (values: " + escape(", ".join(argument["allValues"])) + ")"
            if "defaultValue" in argument:
                text += " (default: " + escape(str(argument["defaultValue"])) + ")"
            lines += [".TP", head, text]
            if argument.get("discussion"):
                lines.append(paragraphs(argument["discussion"]))
    extra = os.path.join(EXTRA, title + ".1.extra")
    if os.path.exists(extra):
        with open(extra, encoding="utf-8") as handle:
            lines.append(handle.read().rstrip("\n"))
    elif len(path) > 1:
        lines += [".SH SEE ALSO", ".BR extdisplay (1)"]
    return "\n".join(lines) + "\n"


def write(command, path, version, outdir, written):
    name = "-".join(path) + ".1"
    with open(os.path.join(outdir, name), "w", encoding="utf-8") as handle:
        handle.write(page(command, path, version))
    written.append(name)
    for sub in command.get("subcommands", []):
        # "help" is the parser's own (`extdisplay help COMMAND` is `--help`): no page of its own.
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            write(sub, path + [sub["commandName"]], version, outdir, written)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: man-from-help.py BINARY OUTDIR")
    binary, outdir = sys.argv[1], sys.argv[2]
    try:
        dump = subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout
        version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit("man-from-help.py: cannot run %s: %s" % (binary, error))
    os.makedirs(outdir, exist_ok=True)
    written = []
    write(json.loads(dump)["command"], ["extdisplay"], version, outdir, written)
    print("man-from-help.py: %d pages in %s: %s" % (len(written), outdir, " ".join(written)))


main()
