// pickle.h: a reader for the subset of Python's pickle format that data files use (dicts, lists,
// tuples, integers, booleans, None, byte and text strings, and numpy arrays), written for
// CIFAR-10's Python batches (cifar_pickle.h). It never calls anything: the pickle machine's
// opcodes only build plain values. A GLOBAL is a name, accepted only from a short list (numpy's
// array and dtype reconstruction, _codecs.encode), and REDUCE/BUILD on those names are
// interpreted here as the data they describe. Every other callable, and every opcode that
// creates objects by calling a class (INST, OBJ, NEWOBJ, persistent ids, extensions), is refused.
// Lengths are checked against the bytes left before anything is read, so a truncated or hostile
// file throws pickle::Error ("at byte N: ...") instead of reading past the end or allocating
// what it claims. Strings point into the input: the input must outlive the Document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rlx::train::pickle {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class Kind { None, Bool, Int, Bytes, Text, List, Tuple, Dict, Global, Array, Dtype };

// One value. Containers hold the ids of their elements (Document::at), so shared and even
// self-containing values are plain ids, freed with the Document.
struct Value {
  Kind kind = Kind::None;
  int64_t integer = 0;        // Int, Bool (0 or 1)
  std::string_view text;      // Bytes, Text (UTF-8), Global ("module.name"), Dtype ("u1", "i8", ...)
  std::vector<size_t> items;  // List, Tuple; Dict: key, value, key, value, ...
  // Array (numpy.ndarray) once built: shape, element type (a Dtype's text), byte order ('<', '>',
  // '|' or '='), Fortran order, and the raw bytes.
  bool built = false;
  std::vector<int64_t> shape;
  std::string_view dtype;
  char byte_order = '|';
  bool fortran = false;
  std::string_view data;
};

class Document {
 public:
  const Value& at(size_t id) const { return values_.at(id); }
  const Value& root() const { return values_.at(root_); }
  size_t size() const { return values_.size(); }
  // The value of a Dict under a Bytes or Text key equal to `key`, or nullptr.
  const Value* find(const Value& dict, std::string_view key) const;

 private:
  friend class Machine;
  std::deque<Value> values_;
  std::deque<std::string> owned_;  // bytes made by decoding (latin-1 from text), kept for string_views
  size_t root_ = 0;
};

// The name of a kind, for messages ("dict", "list", "numpy array", ...).
const char* kind_name(Kind k);

// Parses one pickle that must fill `bytes` exactly (bytes after its STOP are an error).
Document parse(std::string_view bytes);

}  // namespace rlx::train::pickle
