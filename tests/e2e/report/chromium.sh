#!/usr/bin/env bash
# report.html in a real browser (issue 13): headless Chromium loads the page, a probe script (added
# to a copy, never to the report) measures the page: its height, how many images decoded, where
# the first [TO WRITE] block sits. Then a screenshot of the report itself at that height must have
# exactly that size, show the placeholder's yellow at the probed place, and be taller than the
# figures it embeds. Exit 77 (skipped) where Chromium is not installed.
#   chromium.sh RLX TMPDIR
set -euo pipefail
rlx=$1
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then echo "chromium not installed: skipped"; exit 77; fi
d=$2/report_chromium
rm -rf "$d" && mkdir -p "$d"
"$rlx" run tests/e2e/report/make_dbs.lua --set dir="$d" >/dev/null 2>&1
"$rlx" report "$d/a.db" --out "$d/out" --quiet 2>/dev/null
chrome() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }
probe='<script>window.addEventListener("load", function () {
  var im = document.images, ok = 0, h = 0;
  for (var i = 0; i < im.length; i++) { if (im[i].naturalWidth === 1200) ok++; h += im[i].getBoundingClientRect().height; }
  var q = document.querySelector("blockquote").getBoundingClientRect();
  var p = document.createElement("pre"); p.id = "probe";
  p.textContent = ["probe", document.documentElement.scrollHeight, im.length, ok, Math.round(h),
    document.querySelectorAll("table").length, Math.round(q.left + 8), Math.round(q.top + 6)].join(" ");
  document.body.appendChild(p);
});</script></body>'
awk -v p="$probe" '{ sub(/<\/body>/, p); print }' "$d/out/report.html" > "$d/out/probe.html"
read -r _ height images decoded img_h tables qx qy < <(chrome --window-size=1200,900 --dump-dom "file://$d/out/probe.html" |
  grep -oP '<pre id="probe">\K[^<]+')
echo "page height $height, $decoded of $images images decoded (1200 px wide PNGs), $tables tables, figures $img_h px"
# One environment: Figures A, C and D (B compares environments, so it is not drawn; issue 34).
[ "$images" = 3 ] && [ "$decoded" = 3 ] || { echo "FAIL: expected 3 embedded figures, all decoded"; exit 1; }
# One environment, no counters: the merged report's 25 tables less §6.2 and §6.3.
[ "$tables" = 23 ] || { echo "FAIL: expected 23 tables, the browser found $tables"; exit 1; }
[ "$height" -gt "$img_h" ] || { echo "FAIL: page ($height px) shorter than its figures ($img_h px)"; exit 1; }
chrome --window-size=1200,"$height" --screenshot="$d/shot.png" "file://$d/out/report.html" >/dev/null
read -r color w h < <("$rlx" -e "print(rlx.plot.pixel('$d/shot.png', $qx, $qy))")
echo "screenshot ${w}x${h}, pixel ($qx, $qy) $color"
[ "$w" = 1200 ] && [ "$h" = "$height" ] || { echo "FAIL: screenshot ${w}x${h}, page 1200x$height"; exit 1; }
[ "$color" = "#fff8d6" ] || { echo "FAIL: the placeholder block is not where the page put it ($color)"; exit 1; }
# Issue 45: a report over two real machines at 1200 px: no table is wider than the page's text (F.4
# and F.7 ran off the page), and the drafts are drawn in their own colour. The probe measures every
# table against the body's content box and finds the first draft block.
cp tests/fixtures/studies/epyc-2c-study.db "$d/epyc.db"
cp tests/fixtures/studies/h200-default-study.db "$d/h200.db"
"$rlx" report "$d/epyc.db" "$d/h200.db" --out "$d/two" --quiet 2>/dev/null
probe2='<script>window.addEventListener("load", function () {
  var b = document.body, cs = getComputedStyle(b);
  var right = b.getBoundingClientRect().right - parseFloat(cs.paddingRight) + 1, wide = 0, widest = 0;
  var t = document.querySelectorAll("table");
  for (var i = 0; i < t.length; i++) {
    var r = t[i].getBoundingClientRect().right;
    if (r > right) wide++;
    widest = Math.max(widest, Math.round(r - right));
  }
  var q = document.querySelector("blockquote.draft").getBoundingClientRect();
  var p = document.createElement("pre"); p.id = "probe";
  p.textContent = ["probe", t.length, wide, widest, document.documentElement.scrollWidth, document.documentElement.clientWidth,
    Math.round(q.left + 8), Math.round(q.top + 6)].join(" ");
  document.body.appendChild(p);
});</script></body>'
awk -v p="$probe2" '{ sub(/<\/body>/, p); print }' "$d/two/report.html" > "$d/two/probe.html"
read -r _ n wide widest sw cw dx dy < <(chrome --window-size=1200,900 --dump-dom "file://$d/two/probe.html" |
  grep -oP '<pre id="probe">\K[^<]+')
echo "two machines: $n tables, $wide wider than the text (by up to $widest px); page $sw px wide in a $cw px window"
[ "$wide" = 0 ] || { echo "FAIL: $wide tables wider than the page's text"; exit 1; }
[ "$sw" -le "$cw" ] || { echo "FAIL: the page scrolls sideways ($sw > $cw px)"; exit 1; }
# The screenshot reaches just past the first draft (the whole page is over Chromium's size limit).
chrome --window-size=1200,$((dy + 200)) --screenshot="$d/two.png" "file://$d/two/report.html" >/dev/null
read -r color _ _ < <("$rlx" -e "print(rlx.plot.pixel('$d/two.png', $dx, $dy))")
[ "$color" = "#eaf2fa" ] || { echo "FAIL: the first draft block is not drawn blue ($color)"; exit 1; }
echo "chromium report ok"
