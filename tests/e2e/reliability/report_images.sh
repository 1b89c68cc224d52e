#!/usr/bin/env bash
# report_images.sh RLX: issue 35 item 7, `rlx report FILE.md` embeds only regular image files.
# A FIFO named fifo.png hung it (open blocked for a writer that never came), a .png link to
# /dev/zero was read until memory ran out, a .png link to a text file (the probe's /etc/shadow)
# was embedded as base64. Each is refused in one line naming the image, exit 1, no HTML written;
# a real figure still embeds. Every call runs under `timeout`: a hang fails the test.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-report-images"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
render() {  # render NAME: f.md showing NAME, rendered to f.html
  printf '# F\n\n![f](%s)\n' "$1" >f.md
  timeout 120 "$RLX" report f.md --out f.html >out 2>err
}
mkfifo fifo.png
render fifo.png
rc=$?
[ "$rc" = 1 ] || fail "FIFO: exit $rc (124: it hung): $(cat err)"
[ "$(cat err)" = "rlx report: the image 'fifo.png' (./fifo.png) is a FIFO, not an image file: fix the path in the Markdown" ] ||
  fail "FIFO: $(cat err)"
[ ! -e f.html ] || fail "FIFO: f.html written"
ln -s /dev/zero zero.png
render zero.png
[ $? = 1 ] && grep -q "^rlx report: the image 'zero.png' (.*) is a device, not an image file" err || fail "/dev/zero: $(cat err)"
printf 'root:$6$salt$hash:19000:0:99999:7:::\n' >shadow
ln -s shadow secret.png
render secret.png
[ $? = 1 ] || fail "a text file as .png was embedded"
[ "$(cat err)" = "rlx report: the image 'secret.png' is not a PNG image: its first bytes do not match its extension; fix the path in the Markdown, or rename the file to its real type" ] ||
  fail "text as .png: $(cat err)"
[ ! -e f.html ] || fail "text as .png: f.html written"
"$RLX" -e "rlx.plot.throughput{series = {{x = {16, 32}, y = {2, 3}}}, out = '$T/good.png'}" || fail "drawing good.png"
render good.png || fail "a real figure: $(cat err)"
grep -q 'src="data:image/png;base64,iVBORw0KGgo' f.html || fail "good.png not embedded"
echo ok
