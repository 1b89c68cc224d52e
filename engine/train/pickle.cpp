// pickle.cpp: see pickle.h. The pickle machine (Python's Lib/pickletools.py documents every
// opcode) keeps a stack of value ids, a stack of marks and a memo; this reader implements the
// opcodes that build data and refuses the rest by name.
#include "train/pickle.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace rlx::train::pickle {

namespace {

// Bounds on what a file may make, so that a hostile file of one-byte opcodes cannot turn 30 MB
// into gigabytes of values. A CIFAR-10 batch makes about 20,000 values.
constexpr size_t kMaxValues = size_t{1} << 21;
constexpr size_t kMaxElements = size_t{1} << 22;
constexpr size_t kMaxLine = 256;

struct Refused {
  unsigned char op;
  const char* name;
  const char* why;
};

// Opcodes that call code (or need objects from outside the file): refused with a reason.
constexpr Refused kRefused[] = {
    {'i', "INST", "it creates an object by calling a class"},
    {'o', "OBJ", "it creates an object by calling a class"},
    {0x81, "NEWOBJ", "it creates an object by calling a class"},
    {0x92, "NEWOBJ_EX", "it creates an object by calling a class"},
    {'P', "PERSID", "it refers to an object outside the file"},
    {'Q', "BINPERSID", "it refers to an object outside the file"},
    {0x82, "EXT1", "it refers to a registered extension"},
    {0x83, "EXT2", "it refers to a registered extension"},
    {0x84, "EXT4", "it refers to a registered extension"},
    {0x97, "NEXT_BUFFER", "it refers to a buffer outside the file"},
    {0x98, "READONLY_BUFFER", "it refers to a buffer outside the file"},
};

// Globals a numpy array or a Python 3 protocol-2 bytes object needs; nothing else is accepted.
enum class Callable { Reconstruct, Ndarray, Dtype, FromBuffer, Encode };
struct Allowed {
  const char* name;
  Callable what;
};
constexpr Allowed kAllowed[] = {
    {"numpy.core.multiarray._reconstruct", Callable::Reconstruct},
    {"numpy._core.multiarray._reconstruct", Callable::Reconstruct},
    {"numpy.ndarray", Callable::Ndarray},
    {"numpy.dtype", Callable::Dtype},
    {"numpy.core.numeric._frombuffer", Callable::FromBuffer},
    {"numpy._core.numeric._frombuffer", Callable::FromBuffer},
    {"_codecs.encode", Callable::Encode},
};

}  // namespace

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
    case Kind::Bytes:
      return "bytes";
    case Kind::Text:
      return "str";
    case Kind::List:
      return "list";
    case Kind::Tuple:
      return "tuple";
    case Kind::Dict:
      return "dict";
    case Kind::Global:
      return "global name";
    case Kind::Array:
      return "numpy array";
    case Kind::Dtype:
      return "numpy dtype";
  }
  return "?";
}

const Value* Document::find(const Value& dict, std::string_view key) const {
  if (dict.kind != Kind::Dict) return nullptr;
  for (size_t i = 0; i + 1 < dict.items.size(); i += 2) {
    const Value& k = at(dict.items[i]);
    if ((k.kind == Kind::Bytes || k.kind == Kind::Text) && k.text == key) return &at(dict.items[i + 1]);
  }
  return nullptr;
}

class Machine {
 public:
  Machine(std::string_view in, Document& doc) : in_(in), doc_(doc) {}
  void run();

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(fmt::format("at byte {}: {}", op_at_, what));
  }
  const unsigned char* take(uint64_t n, const char* what);
  uint64_t little(size_t n, const char* what);
  std::string_view line(const char* what);
  int64_t parse_int(std::string_view text, const char* what);

  size_t make(Value v);
  size_t make_text(Kind kind, std::string_view text) {
    Value v;
    v.kind = kind;
    v.text = text;
    return make(std::move(v));
  }
  size_t make_int(int64_t i, Kind kind = Kind::Int) {
    Value v;
    v.kind = kind;
    v.integer = i;
    return make(std::move(v));
  }
  Value& val(size_t id) { return doc_.values_[id]; }
  void push(size_t id);
  size_t pop();
  size_t top();
  std::vector<size_t> pop_to_mark();
  void add_elements(Value& container, const std::vector<size_t>& ids);

  void step(unsigned char op);
  void op_global(std::string module, std::string name);
  void op_reduce();
  void op_build();
  size_t call(Callable what, const Value& args);
  void build_array(Value& a, const Value& state);
  std::string_view bytes_of(const Value& v, const char* what);
  std::vector<int64_t> shape_of(const Value& v);
  const Value& dtype_of(size_t id);

  std::string_view in_;
  Document& doc_;
  size_t pos_ = 0, op_at_ = 0;
  bool stopped_ = false;
  std::vector<size_t> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, size_t> memo_;
  size_t elements_ = 0;
};

const unsigned char* Machine::take(uint64_t n, const char* what) {
  const size_t left = in_.size() - pos_;
  if (n > left)
    fail(fmt::format("truncated: {} needs {} bytes, {} left (an incomplete file: copy or extract it again)",
                     what, n, left));
  const auto* p = reinterpret_cast<const unsigned char*>(in_.data() + pos_);
  pos_ += static_cast<size_t>(n);
  return p;
}

uint64_t Machine::little(size_t n, const char* what) {
  const unsigned char* p = take(n, what);
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

std::string_view Machine::line(const char* what) {
  const size_t end = in_.find('\n', pos_);
  if (end == std::string_view::npos) fail(fmt::format("truncated: {} has no end of line", what));
  if (end - pos_ > kMaxLine) fail(fmt::format("{} is longer than {} bytes", what, kMaxLine));
  std::string_view s = in_.substr(pos_, end - pos_);
  pos_ = end + 1;
  return s;
}

int64_t Machine::parse_int(std::string_view text, const char* what) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    fail(fmt::format("{} '{}' is not an integer rlx can hold (64-bit)", what, text));
  return v;
}

size_t Machine::make(Value v) {
  if (doc_.values_.size() >= kMaxValues)
    fail(fmt::format("more than {} values: far more than a data batch holds", kMaxValues));
  doc_.values_.push_back(std::move(v));
  return doc_.values_.size() - 1;
}

void Machine::push(size_t id) {
  if (stack_.size() >= kMaxValues) fail(fmt::format("more than {} values on the stack", kMaxValues));
  stack_.push_back(id);
}

size_t Machine::pop() {
  if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back()))
    fail("stack underflow: an opcode needs a value that is not there (a malformed pickle)");
  const size_t id = stack_.back();
  stack_.pop_back();
  return id;
}

size_t Machine::top() {
  const size_t id = pop();
  stack_.push_back(id);
  return id;
}

std::vector<size_t> Machine::pop_to_mark() {
  if (marks_.empty()) fail("an opcode needs a MARK that was never set (a malformed pickle)");
  const size_t m = marks_.back();
  marks_.pop_back();
  std::vector<size_t> out(stack_.begin() + static_cast<std::ptrdiff_t>(m), stack_.end());
  stack_.resize(m);
  return out;
}

void Machine::add_elements(Value& container, const std::vector<size_t>& ids) {
  elements_ += ids.size();
  if (elements_ > kMaxElements)
    fail(fmt::format("more than {} container elements: far more than a data batch holds", kMaxElements));
  container.items.insert(container.items.end(), ids.begin(), ids.end());
}

void Machine::run() {
  while (!stopped_) {
    if (pos_ >= in_.size())
      throw Error(
          fmt::format("at byte {}: the file ends before the pickle's STOP opcode (a truncated file: copy or "
                      "extract it again)",
                      pos_));
    op_at_ = pos_;
    step(static_cast<unsigned char>(in_[pos_++]));
  }
  if (pos_ != in_.size())
    throw Error(
        fmt::format("at byte {}: {} bytes follow the pickle's STOP opcode (not one pickle: a damaged file?)",
                    pos_, in_.size() - pos_));
}

void Machine::step(unsigned char op) {
  for (const Refused& r : kRefused)
    if (r.op == op)
      fail(fmt::format("opcode {} (0x{:02x}) is refused: {}; rlx reads data pickles without running code",
                       r.name, static_cast<unsigned>(op), r.why));
  switch (op) {
    case 0x80: {  // PROTO
      const uint64_t v = little(1, "PROTO");
      if (v > 5) fail(fmt::format("pickle protocol {} is newer than 5, the newest rlx reads", v));
      return;
    }
    case 0x95:
      little(8, "FRAME");
      return;  // framing only groups the opcodes that follow
    case '.':
      stopped_ = true;
      doc_.root_ = pop();
      return;
    case '(':
      // Bounded like the values: 30 MB of MARK opcodes would otherwise hold 240 MB of marks.
      if (marks_.size() >= kMaxValues)
        fail(fmt::format("more than {} MARKs: far more than a data batch sets", kMaxValues));
      marks_.push_back(stack_.size());
      return;
    case '0':
      pop();
      return;
    case '1':
      pop_to_mark();
      return;
    case '2':
      push(top());
      return;
    case 'N':
      push(make(Value{}));
      return;
    case 0x88:
      push(make_int(1, Kind::Bool));
      return;
    case 0x89:
      push(make_int(0, Kind::Bool));
      return;
    case 'I': {
      const std::string_view t = line("INT");
      if (t == "00" || t == "01")
        push(make_int(t == "01", Kind::Bool));  // protocol 0's False and True
      else
        push(make_int(parse_int(t, "INT")));
      return;
    }
    case 'L': {
      std::string_view t = line("LONG");
      if (!t.empty() && t.back() == 'L') t.remove_suffix(1);
      push(make_int(parse_int(t, "LONG")));
      return;
    }
    case 'J':
      push(make_int(static_cast<int32_t>(little(4, "BININT"))));
      return;
    case 'K':
      push(make_int(static_cast<int64_t>(little(1, "BININT1"))));
      return;
    case 'M':
      push(make_int(static_cast<int64_t>(little(2, "BININT2"))));
      return;
    case 0x8a:
    case 0x8b: {  // LONG1, LONG4: little-endian two's complement of n bytes
      const uint64_t n = little(op == 0x8a ? 1 : 4, "LONG1/LONG4 length");
      if (n > 8) fail(fmt::format("an integer of {} bytes does not fit in 64 bits", n));
      uint64_t v = n == 0 ? 0 : little(static_cast<size_t>(n), "LONG1/LONG4");
      if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);
      push(make_int(static_cast<int64_t>(v)));
      return;
    }
    case 'U':
    case 'C':
    case 'T':
    case 'B':
    case 0x8e:
    case 0x96: {
      // SHORT_BINSTRING, SHORT_BINBYTES (1-byte length), BINSTRING (signed 4), BINBYTES (4),
      // BINBYTES8 and BYTEARRAY8 (8): Python 2's str and Python 3's bytes are both bytes here.
      const size_t width = (op == 'U' || op == 'C') ? 1 : (op == 'T' || op == 'B') ? 4 : 8;
      uint64_t n = little(width, "a string length");
      if (op == 'T' && n > 0x7fffffffu) fail("BINSTRING has a negative length");
      const unsigned char* p = take(n, "a byte string");
      push(
          make_text(Kind::Bytes, std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(n))));
      return;
    }
    case 'X':
    case 0x8c:
    case 0x8d: {  // BINUNICODE (4), SHORT_BINUNICODE (1), BINUNICODE8 (8): UTF-8
      const uint64_t n = little(op == 0x8c ? 1 : (op == 'X' ? 4 : 8), "a text length");
      const unsigned char* p = take(n, "a text string");
      push(make_text(Kind::Text, std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(n))));
      return;
    }
    case ']': {
      Value v;
      v.kind = Kind::List;
      push(make(std::move(v)));
      return;
    }
    case '}': {
      Value v;
      v.kind = Kind::Dict;
      push(make(std::move(v)));
      return;
    }
    case ')': {
      Value v;
      v.kind = Kind::Tuple;
      push(make(std::move(v)));
      return;
    }
    case 'l':
    case 't':
    case 'd': {  // LIST, TUPLE, DICT from the items above the mark
      const std::vector<size_t> items = pop_to_mark();
      if (op == 'd' && items.size() % 2) fail("DICT has a key without a value");
      Value v;
      v.kind = op == 'l' ? Kind::List : (op == 't' ? Kind::Tuple : Kind::Dict);
      const size_t id = make(std::move(v));
      add_elements(val(id), items);
      push(id);
      return;
    }
    case 0x85:
    case 0x86:
    case 0x87: {  // TUPLE1..3
      std::vector<size_t> items(static_cast<size_t>(op - 0x84));
      for (size_t i = items.size(); i-- > 0;) items[i] = pop();
      Value v;
      v.kind = Kind::Tuple;
      const size_t id = make(std::move(v));
      add_elements(val(id), items);
      push(id);
      return;
    }
    case 'a':
    case 'e': {  // APPEND, APPENDS
      const std::vector<size_t> items = op == 'a' ? std::vector<size_t>{pop()} : pop_to_mark();
      Value& list = val(top());
      if (list.kind != Kind::List) fail(fmt::format("APPEND to a {}, not a list", kind_name(list.kind)));
      add_elements(list, items);
      return;
    }
    case 's':
    case 'u': {  // SETITEM, SETITEMS
      std::vector<size_t> items;
      if (op == 's') {
        const size_t value = pop();
        items = {pop(), value};
      } else {
        items = pop_to_mark();
      }
      if (items.size() % 2) fail("SETITEMS has a key without a value");
      Value& dict = val(top());
      if (dict.kind != Kind::Dict) fail(fmt::format("SETITEM on a {}, not a dict", kind_name(dict.kind)));
      add_elements(dict, items);
      return;
    }
    case 'p':
    case 'q':
    case 'r':
    case 0x94: {  // PUT, BINPUT, LONG_BINPUT, MEMOIZE
      uint64_t key = op == 'p'   ? static_cast<uint64_t>(parse_int(line("PUT"), "PUT index"))
                     : op == 'q' ? little(1, "BINPUT")
                     : op == 'r' ? little(4, "LONG_BINPUT")
                                 : memo_.size();
      if (memo_.size() >= kMaxValues && !memo_.count(key))
        fail(fmt::format("more than {} memo entries", kMaxValues));
      memo_[key] = top();
      return;
    }
    case 'g':
    case 'h':
    case 'j': {  // GET, BINGET, LONG_BINGET
      uint64_t key = op == 'g' ? static_cast<uint64_t>(parse_int(line("GET"), "GET index"))
                               : little(op == 'h' ? 1 : 4, "BINGET");
      auto it = memo_.find(key);
      if (it == memo_.end()) fail(fmt::format("memo entry {} is read before it was stored", key));
      push(it->second);
      return;
    }
    case 'c': {  // GLOBAL: "module\nname\n"
      std::string module(line("GLOBAL module"));
      op_global(std::move(module), std::string(line("GLOBAL name")));
      return;
    }
    case 0x93: {  // STACK_GLOBAL: module and name as two strings on the stack
      const Value& name = val(pop());
      const Value& module = val(pop());
      if ((name.kind != Kind::Text && name.kind != Kind::Bytes) ||
          (module.kind != Kind::Text && module.kind != Kind::Bytes))
        fail("STACK_GLOBAL needs two strings");
      op_global(std::string(module.text), std::string(name.text));
      return;
    }
    case 'R':
      op_reduce();
      return;
    case 'b':
      op_build();
      return;
    default:
      break;
  }
  const char c = static_cast<char>(op);
  fail(fmt::format(
      "opcode 0x{:02x}{} is not one a data batch uses (rlx reads dicts, lists, tuples, numbers, "
      "strings and numpy arrays): not a CIFAR-10 batch, or a damaged file",
      static_cast<unsigned>(op), (op >= 0x20 && op < 0x7f) ? fmt::format(" ('{}')", c) : std::string()));
}

void Machine::op_global(std::string module, std::string name) {
  std::string full = module + "." + name;
  for (const Allowed& a : kAllowed) {
    if (full == a.name) {
      doc_.owned_.push_back(std::move(full));
      push(make_text(Kind::Global, doc_.owned_.back()));
      return;
    }
  }
  if (full.size() > 80) full = full.substr(0, 80) + "...";
  fail(
      fmt::format("the pickle names '{}', which rlx does not call: only numpy arrays (and _codecs.encode for "
                  "bytes) may appear in a data batch",
                  full));
}

void Machine::op_reduce() {
  const size_t args = pop();
  const Value& fn = val(pop());
  if (fn.kind != Kind::Global) fail(fmt::format("REDUCE calls a {}, not a global name", kind_name(fn.kind)));
  if (val(args).kind != Kind::Tuple) fail("REDUCE's arguments are not a tuple");
  for (const Allowed& a : kAllowed)
    if (fn.text == a.name) {
      push(call(a.what, val(args)));
      return;
    }
  fail("REDUCE calls an unknown global");  // unreachable: op_global admits only kAllowed
}

std::string_view Machine::bytes_of(const Value& v, const char* what) {
  if (v.kind == Kind::Bytes) return v.text;
  if (v.kind != Kind::Text) fail(fmt::format("{} is a {}, not bytes", what, kind_name(v.kind)));
  // Text standing for bytes (Python 3 protocol 2, or a file loaded with encoding='latin1'): every
  // character must be U+0000..U+00FF, one byte each.
  std::string out;
  out.reserve(v.text.size());
  for (size_t i = 0; i < v.text.size(); ++i) {
    const auto c = static_cast<unsigned char>(v.text[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if ((c == 0xc2 || c == 0xc3) && i + 1 < v.text.size() &&
               (static_cast<unsigned char>(v.text[i + 1]) & 0xc0) == 0x80) {
      out.push_back(static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(v.text[++i]) & 0x3f)));
    } else {
      fail(fmt::format("{} holds a character beyond latin-1 (not bytes)", what));
    }
  }
  doc_.owned_.push_back(std::move(out));
  return doc_.owned_.back();
}

std::vector<int64_t> Machine::shape_of(const Value& v) {
  if (v.kind != Kind::Tuple) fail(fmt::format("an array shape is a {}, not a tuple", kind_name(v.kind)));
  std::vector<int64_t> shape;
  for (size_t id : v.items) {
    const Value& d = val(id);
    if (d.kind != Kind::Int || d.integer < 0) fail("an array shape holds something other than a size >= 0");
    shape.push_back(d.integer);
  }
  return shape;
}

const Value& Machine::dtype_of(size_t id) {
  const Value& d = val(id);
  if (d.kind != Kind::Dtype)
    fail(fmt::format("an array's element type is a {}, not a numpy dtype", kind_name(d.kind)));
  return d;
}

namespace {
// Bytes per element of a dtype "u1", "i8", "f4" ...; 0 when rlx does not know the type.
size_t itemsize(std::string_view t) {
  if (t.size() < 2 || std::strchr("biuf", t[0]) == nullptr) return 0;
  size_t n = 0;
  auto [end, ec] = std::from_chars(t.data() + 1, t.data() + t.size(), n);
  if (ec != std::errc() || end != t.data() + t.size() || (n != 1 && n != 2 && n != 4 && n != 8)) return 0;
  return n;
}

// n = product of the shape, checked against overflow; false when it overflows.
bool elements(const std::vector<int64_t>& shape, uint64_t& n) {
  n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d)) return false;
    n *= static_cast<uint64_t>(d);
  }
  return true;
}
}  // namespace

size_t Machine::call(Callable what, const Value& args) {
  const std::vector<size_t> a = args.items;  // copied: make() may move the values' storage
  Value out;
  switch (what) {
    case Callable::Reconstruct:  // _reconstruct(ndarray, (0,), b'b'): an empty array, filled by BUILD
      if (a.size() != 3 || val(a[0]).kind != Kind::Global || val(a[0]).text != "numpy.ndarray")
        fail("numpy's _reconstruct is called with other arguments than (numpy.ndarray, shape, typecode)");
      out.kind = Kind::Array;
      return make(std::move(out));
    case Callable::Dtype: {  // dtype('u1', False, True); the byte order comes with BUILD
      if (a.empty()) fail("numpy.dtype is called without a type");
      std::string_view t = bytes_of(val(a[0]), "a dtype's type");
      out.kind = Kind::Dtype;
      if (!t.empty() && std::strchr("<>|=", t[0])) {
        out.byte_order = t[0];
        t.remove_prefix(1);
      }
      if (itemsize(t) == 0)
        fail(fmt::format("numpy dtype '{}' is not one rlx reads (b, i, u, f of 1-8 bytes)", t));
      out.text = t;
      return make(std::move(out));
    }
    case Callable::FromBuffer: {  // _frombuffer(buffer, dtype, shape, order): protocol 5's arrays
      if (a.size() != 4)
        fail("numpy's _frombuffer is called with other arguments than (buffer, dtype, shape, order)");
      out.kind = Kind::Array;
      out.data = bytes_of(val(a[0]), "an array's buffer");
      const Value& d = dtype_of(a[1]);
      out.dtype = d.text;
      out.byte_order = d.byte_order;
      out.shape = shape_of(val(a[2]));
      out.fortran = bytes_of(val(a[3]), "an array's order") == "F";
      out.built = true;
      uint64_t n = 0;
      if (!elements(out.shape, n) || n > out.data.size() / itemsize(out.dtype) ||
          n * itemsize(out.dtype) != out.data.size())
        fail("a numpy array's buffer does not hold shape x element size bytes");
      return make(std::move(out));
    }
    case Callable::Encode: {  // _codecs.encode(text, 'latin1'): Python 3's bytes in protocol 2
      if (a.size() != 2) fail("_codecs.encode is called with other arguments than (text, encoding)");
      const std::string_view enc = val(a[1]).text;
      if (val(a[1]).kind != Kind::Text || (enc != "latin1" && enc != "latin-1" && enc != "iso-8859-1"))
        fail("_codecs.encode is called with an encoding other than latin1");
      if (val(a[0]).kind != Kind::Text) fail("_codecs.encode is called on something other than text");
      return make_text(Kind::Bytes, bytes_of(val(a[0]), "encoded text"));
    }
    case Callable::Ndarray:
      break;
  }
  fail("numpy.ndarray is called directly (a data batch reconstructs arrays with _reconstruct)");
}

void Machine::build_array(Value& a, const Value& state) {
  if (a.built) fail("BUILD on a numpy array that already has its data");
  // (version, shape, dtype, is_fortran, raw data), or the 4-tuple without version of old numpy.
  if (state.kind != Kind::Tuple || (state.items.size() != 5 && state.items.size() != 4))
    fail("a numpy array's state is not (version, shape, dtype, fortran, data)");
  const size_t o = state.items.size() - 4;
  const std::vector<size_t> s = state.items;
  std::vector<int64_t> shape = shape_of(val(s[o]));
  const Value& d = dtype_of(s[o + 1]);
  const Value& f = val(s[o + 2]);
  if (f.kind != Kind::Bool && f.kind != Kind::Int) fail("a numpy array's Fortran flag is not a boolean");
  const std::string_view data = bytes_of(val(s[o + 3]), "a numpy array's data (object arrays are not read)");
  uint64_t n = 0;
  const size_t size = itemsize(d.text);
  if (!elements(shape, n) || n > data.size() / size || n * size != data.size())
    fail(fmt::format("a numpy array of shape x '{}' does not match its {} bytes of data", d.text,
                     data.size()));
  a.shape = std::move(shape);
  a.dtype = d.text;
  a.byte_order = d.byte_order;
  a.fortran = f.integer != 0;
  a.data = data;
  a.built = true;
}

void Machine::op_build() {
  const size_t state = pop();
  Value& obj = val(top());
  if (obj.kind == Kind::Array) {
    build_array(obj, val(state));
  } else if (obj.kind == Kind::Dtype) {
    // (version, byte order, subarray, names, fields, elsize, alignment, flags[, metadata])
    const Value& s = val(state);
    if (s.kind != Kind::Tuple || s.items.size() < 2) fail("a numpy dtype's state is not a tuple");
    const Value& order = val(s.items[1]);
    if ((order.kind == Kind::Text || order.kind == Kind::Bytes) && order.text.size() == 1 &&
        std::strchr("<>|=", order.text[0]))
      obj.byte_order = order.text[0];
    else
      fail("a numpy dtype's byte order is not one of <, >, |, =");
  } else {
    fail(fmt::format("BUILD on a {} (only numpy arrays and dtypes are built)", kind_name(obj.kind)));
  }
}

Document parse(std::string_view bytes) {
  Document doc;
  Machine(bytes, doc).run();
  return doc;
}

}  // namespace rlx::train::pickle
