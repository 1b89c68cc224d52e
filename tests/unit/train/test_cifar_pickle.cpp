// test_cifar_pickle.cpp: CIFAR-10's Python batches read by the restricted pickle reader: the
// layouts Python 2 and 3 write (made by hand in pickle_fixtures.h), every truncation, opcodes
// that would run code, lengths larger than the file, and the dataset opener on a
// cifar-10-batches-py folder.
#include <catch2/catch.hpp>
#include <fstream>

#include "dataset_fixtures.h"
#include "pickle_fixtures.h"
#include "train/cifar_pickle.h"
#include "train/dataset.h"
#include "train/pickle.h"

using namespace rlx::train;
using rlx::test::PickleWriter;

namespace {

std::string error_of(const std::string& bytes) {
  try {
    parse_cifar_pickle(bytes, "batch");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

void check_batch(const CifarBatch& b, const std::vector<int>& labels) {
  REQUIRE(b.labels.size() == labels.size());
  for (size_t i = 0; i < labels.size(); ++i) CHECK(b.labels[i] == labels[i]);
  REQUIRE(b.pixels.size() == labels.size() * 3072);
  // Image 1, green plane (c = 1), pixel 5: (1 * 31 + 1 * 7 + 5) % 256 = 43; image 2, blue, pixel
  // 1000: (62 + 14 + 1000) % 256 = 52.
  CHECK(b.pixels[1 * 3072 + 1024 + 5] == 43);
  CHECK(b.pixels[2 * 3072 + 2048 + 1000] == 52);
  const std::string want = rlx::test::cifar_pixels(labels.size());
  CHECK(b.pixels == std::vector<uint8_t>(want.begin(), want.end()));
}

const std::vector<int> kLabels = {3, 9, 0, 7};

}  // namespace

TEST_CASE("a Python 2 protocol-2 batch (the archive's layout) reads labels and pixels") {
  check_batch(parse_cifar_pickle(rlx::test::cifar_pickle_py2(kLabels), "b"), kLabels);
}

TEST_CASE("Python 3 batches read the same: protocol 4, labels as an int64 array, protocol 2") {
  check_batch(parse_cifar_pickle(rlx::test::cifar_pickle_py3(kLabels), "b"), kLabels);
  check_batch(parse_cifar_pickle(rlx::test::cifar_pickle_py3(kLabels, true), "b"), kLabels);
  // Protocol 2 from Python 3 writes bytes as latin-1 text: pixels >= 0x80 are two UTF-8 bytes.
  check_batch(parse_cifar_pickle(rlx::test::cifar_pickle_py3_proto2(kLabels), "b"), kLabels);
}

TEST_CASE("every truncation of a batch is refused, never read past the end") {
  const std::string good = rlx::test::cifar_pickle_py2({1, 2});
  for (size_t cut = 0; cut < good.size(); cut += (cut > 100 && cut < good.size() - 200) ? 97 : 1) {
    const std::string msg = error_of(good.substr(0, cut));
    INFO("cut at " << cut);
    CHECK(msg.find("'batch' is not a CIFAR-10 Python batch: at byte ") == 0);
  }
  // Cut inside the pixels: the string's length is checked against what is left.
  const std::string msg = error_of(good.substr(0, 400));
  CHECK(msg.find("truncated: a byte string needs 6144 bytes") != std::string::npos);
  CHECK(error_of(good.substr(0, good.size() - 1)).find("ends before the pickle's STOP") != std::string::npos);
  CHECK(error_of(good + "x").find("1 bytes follow the pickle's STOP") != std::string::npos);
}

TEST_CASE("opcodes that would run code are refused by name") {
  // pickle.dumps of os.system('ls') through __reduce__: GLOBAL os system, then REDUCE.
  PickleWriter w;
  w.op(0x80).le(2, 1).op('c').raw("os\nsystem\n").str2("ls").op(0x85).op('R').op('.');
  CHECK(error_of(w.take()) ==
        "'batch' is not a CIFAR-10 Python batch: at byte 2: the pickle names 'os.system', which rlx does not "
        "call: only "
        "numpy arrays (and _codecs.encode for bytes) may appear in a data batch");
  PickleWriter stack_global;
  stack_global.op(0x80).le(4, 1).text("builtins").text("eval").op(0x93).op('.');
  CHECK(error_of(stack_global.take()).find("names 'builtins.eval'") != std::string::npos);
  PickleWriter inst;
  inst.op('(').op('i').raw("os\nsystem\n").op('.');
  CHECK(error_of(inst.take()) ==
        "'batch' is not a CIFAR-10 Python batch: at byte 1: opcode INST (0x69) is refused: it creates an "
        "object by "
        "calling a class; rlx reads data pickles without running code");
  for (int op : {0x81, 0x92, int('P'), int('Q'), 0x82, 0x97})
    CHECK(error_of(std::string(1, static_cast<char>(op))).find("is refused") != std::string::npos);
  CHECK(error_of("\xff").find("opcode 0xff is not one a data batch uses") != std::string::npos);
  CHECK(error_of("G").find("opcode 0x47 ('G') is not one") != std::string::npos);  // BINFLOAT
  CHECK(error_of("\x80\x06}.").find("pickle protocol 6 is newer than 5") != std::string::npos);
  // REDUCE on an allowed name with other arguments, BUILD on a dict.
  PickleWriter nd;
  nd.op('c').raw("numpy\nndarray\n").op(')').op('R').op('.');
  CHECK(error_of(nd.take()).find("numpy.ndarray is called directly") != std::string::npos);
  CHECK(error_of("}}b.").find("BUILD on a dict") != std::string::npos);
}

TEST_CASE("lengths and sizes larger than the file are refused before anything is allocated") {
  PickleWriter w;
  w.op('T').le(0x7fffffff, 4).raw("abc").op('.');
  CHECK(error_of(w.take()).find("at byte 0: truncated: a byte string needs 2147483647 bytes, 4 left") !=
        std::string::npos);
  PickleWriter w8;
  w8.op(0x8e).le(uint64_t{1} << 63, 8).op('.');
  CHECK(error_of(w8.take()).find("needs 9223372036854775808 bytes, 1 left") != std::string::npos);
  PickleWriter neg;
  neg.op('T').le(0xffffffff, 4).op('.');
  CHECK(error_of(neg.take()).find("BINSTRING has a negative length") != std::string::npos);
  PickleWriter big_int;
  big_int.op(0x8a).le(9, 1).raw(std::string(9, '\x01')).op('.');
  CHECK(error_of(big_int.take()).find("an integer of 9 bytes does not fit in 64 bits") != std::string::npos);
  // A shape whose product overflows 64 bits, over 4 bytes of data.
  PickleWriter shape;
  shape.op('c').raw("numpy.core.multiarray\n_reconstruct\n").op('c').raw("numpy\nndarray\n");
  shape.integer(0).op(0x85).str2("b").op(0x87).op('R');
  shape.op('(')
      .integer(1)
      .op(0x8a)
      .le(8, 1)
      .le(uint64_t{1} << 62, 8)
      .op(0x8a)
      .le(8, 1)
      .le(uint64_t{1} << 62, 8);
  shape.op(0x86).op('c').raw("numpy\ndtype\n").str2("u1").integer(0).integer(1).op(0x87).op('R');
  shape.op(0x89).str2("abcd").op('t').op('b').op('.');
  CHECK(error_of(shape.take()).find("does not match its 4 bytes of data") != std::string::npos);
  CHECK(error_of("h\x05.").find("memo entry 5 is read before it was stored") != std::string::npos);
  CHECK(error_of("a.").find("stack underflow") != std::string::npos);
  CHECK(error_of("e.").find("needs a MARK that was never set") != std::string::npos);
}

// Hostile pass of issue 25: MARK was the one opcode whose growth had no bound (2^21 + 1 of them,
// 2 MB of '(' bytes, now stop at the bound of the values instead of growing for the whole file).
TEST_CASE("MARKs are bounded like the values") {
  const std::string marks(size_t{1} << 21 | 1, '(');
  CHECK(error_of(marks + ".").find("at byte 2097152: more than 2097152 MARKs") != std::string::npos);
}

TEST_CASE("a list that contains itself parses (values are ids), and is not a batch") {
  // EMPTY_LIST, BINPUT 0, BINGET 0, APPEND, STOP: l = []; l.append(l)
  const std::string msg =
      error_of(std::string("]q\x00h\x00"
                           "a.",
                           7));
  CHECK(msg == "'batch' is not a CIFAR-10 Python batch: the pickle holds a list, not a dict");
  const auto doc =
      pickle::parse(std::string("]q\x00h\x00"
                                "a.",
                                7));
  CHECK(doc.root().items.size() == 1);
  CHECK(&doc.at(doc.root().items[0]) == &doc.root());
}

TEST_CASE("batches with the wrong contents say what is wrong") {
  CHECK(error_of(rlx::test::cifar_pickle_py2({1, 10})) ==
        "'batch' is not a CIFAR-10 Python batch: label 1 is 10 (CIFAR-10 labels are 0..9)");
  PickleWriter labels_short;
  std::string good = rlx::test::cifar_pickle_py3({1, 2});
  // {'data': ..., 'labels': [1, 2]} with one label dropped: replace "K\x01K\x02e" by "K\x01e".
  const size_t at =
      good.find(std::string("K\x01K\x02"
                            "e"));
  REQUIRE(at != std::string::npos);
  good.replace(at, 5,
               std::string("K\x01"
                           "e"));
  CHECK(error_of(good).find("1 labels for 2 images") != std::string::npos);
  PickleWriter fine;
  fine.op('}').op('(').str2("data").op('N').str2("fine_labels").op(']').op('u').op('.');
  CHECK(error_of(fine.take()).find("a CIFAR-100 batch") != std::string::npos);
  PickleWriter none;
  none.op('}').op('(').str2("data").op('N').str2("labels").op(']').op('u').op('.');
  CHECK(error_of(none.take()).find("'data' is a None, not a numpy array") != std::string::npos);
  // Issue 35 item 11: a reshaped array's message gives the shape it has. The same 3072 bytes as
  // 2 x 1536: the shape (1, 3072) is "K\x01 M\x00\x0c" before TUPLE2.
  std::string reshaped = rlx::test::cifar_pickle_py3({1});
  const std::string shape("K\x01M\x00\x0c\x86", 6);
  const size_t s = reshaped.find(shape);
  REQUIRE(s != std::string::npos);
  reshaped.replace(s, shape.size(), std::string("K\x02M\x00\x06\x86", 6));
  CHECK(
      error_of(reshaped) ==
      "'batch' is not a CIFAR-10 Python batch: 'data' is 2 x 1536 (2 dimensions), not N x 3072 (32 x 32 RGB "
      "images, or N x 3 x 32 x 32)");
}

TEST_CASE("a cifar-10-batches-py folder opens as CIFAR-10 and its images are the pickled bytes") {
  const auto dir = rlx::test::fresh_dir("train_cifar_py");
  const auto py = dir / "cifar-10-batches-py";
  std::filesystem::create_directories(py);
  std::ofstream(py / "data_batch_1", std::ios::binary) << rlx::test::cifar_pickle_py2({3, 9, 0});
  std::ofstream(py / "data_batch_2", std::ios::binary) << rlx::test::cifar_pickle_py3({5, 6});
  std::ofstream(py / "test_batch", std::ios::binary)
      << rlx::test::cifar_pickle_py2({1});  // not training data
  std::ofstream(py / "batches.meta", std::ios::binary) << "not read";
  const auto src = open_dataset(dir.string());
  CHECK(src->kind() == "cifar10");
  CHECK(src->root() == py.string());
  REQUIRE(src->size() == 5);
  CHECK(src->label(0) == 3);
  CHECK(src->label(2) == 0);
  CHECK(src->label(3) == 5);
  CHECK(src->label(4) == 6);
  // Image 4 is image 1 of batch 2: pixel 5 of row 0 is R (31 + 5) = 36, G (31 + 7 + 5) = 43, B 50.
  const auto img = src->load(4, 0);
  REQUIRE(img);
  CHECK(img->width == 32);
  CHECK(int(img->rgb[5 * 3 + 0]) == 36);
  CHECK(int(img->rgb[5 * 3 + 1]) == 43);
  CHECK(int(img->rgb[5 * 3 + 2]) == 50);
  // A damaged batch fails the whole dataset with the file's name.
  std::ofstream(py / "data_batch_3", std::ios::binary) << rlx::test::cifar_pickle_py2({1}).substr(0, 50);
  try {
    open_dataset(dir.string());
    FAIL("a truncated batch opened");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find((py / "data_batch_3").string() +
                                     "' is not a CIFAR-10 Python batch: at byte") == 1);
  }
}
