#!/usr/bin/env python3
"""Writes the sample PDF decks in this folder from scratch (no PDF library): sample-talk.pdf (three 16:9
pages, base-14 Helvetica text, speaker notes in sample-talk.pdfpc), beamer-split.pdf (two pages, each a 4:3
slide on the left and its notes on the right, for `--notes right`) and overlays.pdf (five pages whose
/PageLabels are 1, 2, 2, 2, 3: slide 2 uncovers its points one by one, like Beamer overlays).
Run: python3 make-samples.py"""
import json


def pdf(pages, width, height, catalog_extra=""):
    objects = ["<< /Type /Catalog /Pages 2 0 R %s>>" % catalog_extra,
               "<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % (4 + 2 * i) for i in range(len(pages))), len(pages)),
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    for i, content in enumerate(pages):
        objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %g %g] /Resources << /Font << /F1 3 0 R >> >> "
                       "/Contents %d 0 R >>" % (width, height, 5 + 2 * i))
        objects.append("<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    out, offsets = b"%PDF-1.4\n", []
    for i, body in enumerate(objects):
        offsets.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (i + 1, body)).encode("latin-1")
    xref = len(out)
    out += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)).encode()
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)).encode()
    return out


def text(x, y, size, s, rgb="0.1 0.1 0.15"):
    return "%s rg BT /F1 %d Tf %g %g Td (%s) Tj ET" % (rgb, size, x, y, s)


def slide(title, lines, colour, x=0, w=1024, h=576):
    parts = ["1 1 1 rg %g 0 %g %g re f" % (x, w, h), "%s rg %g %g %g 24 re f" % (colour, x, h - 24, w),
             text(x + 60, h - 120, 48, title)]
    parts += [text(x + 80, h - 200 - 56 * i, 30, "- " + line) for i, line in enumerate(lines)]
    return "\n".join(parts)


talk = [slide("PDF decks", ["any file that starts with %PDF-", "rendered at each display's resolution"], "0.2 0.5 0.9"),
        slide("Clicker-safe", ["PageUp / PageDown / . / B", "Esc and F5 never quit: Q Q or Ctrl-Q"], "0.9 0.5 0.2"),
        slide("Thank you", ["notes come from sample-talk.pdfpc"], "0.3 0.7 0.4")]
open("sample-talk.pdf", "wb").write(pdf(talk, 1024, 576))
notes = {"pdfpcFormat": 2, "duration": 5, "pages": [
    {"idx": 0, "label": "1", "overlay": 0, "note": "Open with the PDF story.\n\nEvery exporter writes PDF."},
    {"idx": 1, "label": "2", "overlay": 0, "note": "Show that Esc does nothing; press Q twice to quit."},
    {"idx": 2, "label": "3", "overlay": 0, "note": "Questions."}]}
open("sample-talk.pdfpc", "w").write(json.dumps(notes, indent=1) + "\n")

split = []
for title, note, colour in [("Split pages", "NOTES: say hello; this half stays on the laptop", "0.6 0.2 0.7"),
                            ("Beamer notes", "NOTES: --notes right picks this half", "0.2 0.6 0.6")]:
    split.append(slide(title, ["the slide half (4:3)"], colour, x=0, w=512, h=384) + "\n"
                 + "0.95 0.95 0.8 rg 512 0 512 384 re f\n" + text(530, 300, 20, note))
open("beamer-split.pdf", "wb").write(pdf(split, 1024, 384))

points = ["one label, three pages", "the overview shows one tile", "next still steps through each"]
overlays = [slide("Overlays", ["page label 1"], "0.2 0.5 0.9")]
overlays += [slide("Slide 2 of 3", points[:n], "0.9 0.5 0.2") for n in (1, 2, 3)]
overlays.append(slide("The end", ["page label 3"], "0.3 0.7 0.4"))
open("overlays.pdf", "wb").write(pdf(overlays, 1024, 576,
                                     "/PageLabels << /Nums [0 << /S /D >> 1 << /P (2) >> 4 << /S /D /St 3 >>] >> "))
