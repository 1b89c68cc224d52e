// pickle_fixtures.h: CIFAR-10 Python batches written by hand, opcode by opcode, in the layouts
// Python writes them (pickletools.dis of a real batch shows the same sequence):
//  - py2: Python 2.7 cPickle protocol 2, as the files in cifar-10-python.tar.gz (GLOBAL,
//    SHORT_BINSTRING keys, BINPUT memo, the array's raw data as one BINSTRING, NEWFALSE);
//  - py3: Python 3 protocol 4 (FRAME, SHORT_BINUNICODE, MEMOIZE, STACK_GLOBAL, BINBYTES);
//  - py3_proto2: Python 3 protocol 2, whose bytes are _codecs.encode(text, 'latin1').
// Images are filled so that every byte says where it is: image i, channel c, pixel p holds
// (i * 31 + c * 7 + p) mod 256.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rlx::test {

class PickleWriter {
 public:
  PickleWriter& op(unsigned char c) {
    out_.push_back(static_cast<char>(c));
    return *this;
  }
  PickleWriter& raw(std::string_view s) {
    out_.append(s);
    return *this;
  }
  PickleWriter& le(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  // BININT1 / BININT2 / BININT as Python picks them.
  PickleWriter& integer(int64_t v) {
    if (v >= 0 && v < 256) return op('K').le(static_cast<uint64_t>(v), 1);
    if (v >= 0 && v < 65536) return op('M').le(static_cast<uint64_t>(v), 2);
    return op('J').le(static_cast<uint64_t>(static_cast<uint32_t>(v)), 4);
  }
  // Python 2 str: SHORT_BINSTRING or BINSTRING.
  PickleWriter& str2(std::string_view s) {
    if (s.size() < 256)
      op('U').le(s.size(), 1);
    else
      op('T').le(s.size(), 4);
    return raw(s);
  }
  // Python 3 bytes: SHORT_BINBYTES or BINBYTES.
  PickleWriter& bytes3(std::string_view s) {
    if (s.size() < 256)
      op('C').le(s.size(), 1);
    else
      op('B').le(s.size(), 4);
    return raw(s);
  }
  // Python 3 str: SHORT_BINUNICODE or BINUNICODE (UTF-8).
  PickleWriter& text(std::string_view s) {
    if (s.size() < 256)
      op(0x8c).le(s.size(), 1);
    else
      op('X').le(s.size(), 4);
    return raw(s);
  }
  PickleWriter& put() { return op('q').le(memo_++ & 0xff, 1); }  // BINPUT
  PickleWriter& memoize() { return op(0x94); }                   // MEMOIZE
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  uint64_t memo_ = 1;
};

inline std::string cifar_pixels(size_t n) {
  std::string px(n * 3072, '\0');
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < 3; ++c)
      for (size_t p = 0; p < 1024; ++p)
        px[i * 3072 + c * 1024 + p] = static_cast<char>((i * 31 + c * 7 + p) % 256);
  return px;
}

// Python 2.7 cPickle.dump({'data': array, 'labels': [...], 'batch_label': ..., 'filenames': [...]},
// f, 2).
inline std::string cifar_pickle_py2(const std::vector<int>& labels) {
  const size_t n = labels.size();
  PickleWriter w;
  w.op(0x80).le(2, 1).op('}').put().op('(');
  w.str2("data").put().op('c').raw("numpy.core.multiarray\n_reconstruct\n").put();
  w.op('c').raw("numpy\nndarray\n").put().integer(0).op(0x85).str2("b").op(0x87).op('R').put();
  w.op('(').integer(1).integer(static_cast<int64_t>(n)).integer(3072).op(0x86);
  w.op('c').raw("numpy\ndtype\n").put().str2("u1").integer(0).integer(1).op(0x87).op('R').put();
  w.op('(').integer(3).str2("|").op('N').op('N').op('N').integer(-1).integer(-1).integer(0).op('t').op('b');
  w.op(0x89).str2(cifar_pixels(n)).op('t').op('b');
  w.str2("labels").put().op(']').put().op('(');
  for (int l : labels) w.integer(l);
  w.op('e');
  w.str2("batch_label").put().str2("training batch 1 of 5").put();
  w.str2("filenames").put().op(']').put().op('(');
  for (size_t i = 0; i < n; ++i) w.str2("img_" + std::to_string(i) + ".png").put();
  w.op('e').op('u').op('.');
  return w.take();
}

// Python 3 pickle.dump(same dict with str keys, f, protocol=4); labels_array: the labels as a
// numpy int64 array instead of a list.
inline std::string cifar_pickle_py3(const std::vector<int>& labels, bool labels_array = false) {
  const size_t n = labels.size();
  PickleWriter body;
  auto dtype = [&](const char* t) {
    body.text("numpy").memoize().text("dtype").memoize().op(0x93).memoize();
    body.text(t).memoize().op(0x89).op(0x88).op(0x87).memoize().op('R').memoize();
    body.op('(')
        .integer(3)
        .text(t[0] == 'u' ? "|" : "<")
        .memoize()
        .op('N')
        .op('N')
        .op('N')
        .integer(-1)
        .integer(-1);
    body.integer(0).op('t').memoize().op('b');
  };
  auto array = [&](const std::vector<int64_t>& shape, const char* t, const std::string& data) {
    body.text("numpy.core.multiarray").memoize().text("_reconstruct").memoize().op(0x93).memoize();
    body.text("numpy").memoize().text("ndarray").memoize().op(0x93).memoize();
    body.integer(0).op(0x85).memoize().bytes3("b").memoize().op(0x87).memoize().op('R').memoize();
    body.op('(').integer(1);
    for (int64_t d : shape) body.integer(d);
    body.op(shape.size() == 1 ? 0x85 : 0x86).memoize();
    dtype(t);
    body.op(0x89).bytes3(data).memoize().op('t').memoize().op('b');
  };
  body.op('}').memoize().op('(');
  body.text("data").memoize();
  array({static_cast<int64_t>(n), 3072}, "u1", cifar_pixels(n));
  body.text("labels").memoize();
  if (labels_array) {
    std::string raw;
    for (int l : labels)
      for (int b = 0; b < 8; ++b)
        raw.push_back(static_cast<char>((static_cast<uint64_t>(l) >> (8 * b)) & 0xff));
    array({static_cast<int64_t>(n)}, "i8", raw);
  } else {
    body.op(']').memoize().op('(');
    for (int l : labels) body.integer(l);
    body.op('e');
  }
  body.text("batch_label").memoize().text("testing batch 1 of 1").memoize();
  body.op('u').op('.');
  const std::string b = body.take();
  PickleWriter w;
  w.op(0x80).le(4, 1).op(0x95).le(b.size(), 8).raw(b);
  return w.take();
}

// Python 3 pickle.dump(..., protocol=2): the data bytes as _codecs.encode(latin-1 text, 'latin1').
inline std::string cifar_pickle_py3_proto2(const std::vector<int>& labels) {
  const size_t n = labels.size();
  std::string utf8;
  for (unsigned char c : cifar_pixels(n)) {
    if (c < 0x80) {
      utf8.push_back(static_cast<char>(c));
    } else {
      utf8.push_back(static_cast<char>(0xc0 | (c >> 6)));
      utf8.push_back(static_cast<char>(0x80 | (c & 0x3f)));
    }
  }
  PickleWriter w;
  w.op(0x80).le(2, 1).op('}').put().op('(');
  w.text("data").put().op('c').raw("numpy.core.multiarray\n_reconstruct\n").put();
  w.op('c').raw("numpy\nndarray\n").put().integer(0).op(0x85).put();
  w.op('c').raw("_codecs\nencode\n").put().text("b").put().text("latin1").put().op(0x86).put().op('R').put();
  w.op(0x87).put().op('R').put();
  w.op('(').integer(1).integer(static_cast<int64_t>(n)).integer(3072).op(0x86).put();
  w.op('c').raw("numpy\ndtype\n").put().text("u1").put().op(0x89).op(0x88).op(0x87).put().op('R').put();
  w.op('(')
      .integer(3)
      .text("|")
      .put()
      .op('N')
      .op('N')
      .op('N')
      .integer(-1)
      .integer(-1)
      .integer(0)
      .op('t')
      .put()
      .op('b');
  w.op(0x89)
      .op('c')
      .raw("_codecs\nencode\n")
      .put()
      .text(utf8)
      .put()
      .text("latin1")
      .put()
      .op(0x86)
      .put()
      .op('R')
      .put();
  w.op('t').put().op('b');
  w.text("labels").put().op(']').put().op('(');
  for (int l : labels) w.integer(l);
  w.op('e').op('u').op('.');
  return w.take();
}

}  // namespace rlx::test
