#!/usr/bin/env bash
# truncated_jpegs.sh RLX: issue 48 item 8, JPEGs cut short are skipped and counted, the first named.
# A folder of JPEGs cut to 300 of 6,525 bytes trained with skipped_files: 0 (libjpeg only warns,
# and fills the missing rows with grey). Now a folder where every file is cut is "no usable
# images" naming the cut, and a folder with some cut counts them in skipped_files.
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-truncated-jpegs"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# Six copies of the ImageFolder tests' 16 x 16 gradient JPEG (tests/e2e/train/jpeg16.lua) in two classes.
"$RLX" -e "
  local jpeg = dofile('$SRC/tests/e2e/train/jpeg16.lua')
  for c = 1, 2 do
    os.execute('mkdir -p data/train/c' .. c)
    for i = 1, 3 do
      local f = assert(io.open(string.format('data/train/c%d/img_%d.jpg', c, i), 'wb'))
      f:write(jpeg)
      f:close()
    end
  end" || fail "writing the JPEGs"
size=$(stat -c %s data/train/c1/img_1.jpg)
# A batch of 6 from 6 files reads every file once (each sample's place in the epoch's order).
train=("$RLX" train --model resnet18 --batch-size 6 --input 32 --iters 1 --warmup-iters 0 --threads 1
  --memory-format contiguous --data data)
# Two of six cut 20 bytes short, inside their scan data (it starts at byte 609 of 653): trained, two
# skipped, the first named. libjpeg decodes them with a warning and grey rows.
truncate -s $((size - 20)) data/train/c1/img_1.jpg data/train/c2/img_2.jpg
"${train[@]}" --json >out 2>err || fail "some cut: exit $?: $(cat err)"
grep -q '"skipped_files": 2' out || fail "some cut: $(grep skipped out)"
grep -q '"skipped_first": "'"'"'data/train/c[12]/img_[12].jpg'"'"': the file ([0-9]* bytes) ends before its end-of-image marker"' out ||
  fail "the first cut file is not named: $(grep skipped out)"
# Every file cut short: nothing to train on, said with why.
for f in data/train/*/*.jpg; do truncate -s $((size - 20)) "$f"; done
"${train[@]}" >out 2>err
[ $? = 1 ] || fail "all cut: exit $?"
grep -q "^rlx train: no usable images in 'data/train': all 6 files were skipped: 6 are truncated (they end before their end-of-image marker) (e.g. 'data/train/c[12]/img_[123].jpg': the file ([0-9]* bytes) ends before its end-of-image marker)$" err ||
  fail "all cut: $(cat err)"
echo ok
