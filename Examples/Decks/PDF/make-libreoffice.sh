#!/bin/sh
# Exports libreoffice-talk.fodp (a flat OpenDocument presentation written by hand: three 16:9 slides of
# solid boxes and a title) to libreoffice-talk.pdf with LibreOffice Impress. Only needed to regenerate the
# committed PDF; the tests read the committed file and never run LibreOffice.
#   Debian: apt-get install -y --no-install-recommends libreoffice-impress
set -eu
cd "$(dirname "$0")"
out=$(mktemp -d)
soffice --headless -env:UserInstallation="file://$out/profile" --convert-to pdf --outdir "$out" libreoffice-talk.fodp
mv "$out/libreoffice-talk.pdf" libreoffice-talk.pdf
rm -rf "$out"
pdfinfo libreoffice-talk.pdf | grep -E '^(Producer|Pages|Page size)'
