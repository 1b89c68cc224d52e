// csv_reader.h: a user's CSV file read one record at a time (RFC 4180: quoted fields with ""
// inside, line breaks inside quotes, LF or CRLF), through the one rule for a user's files
// (util/text_file.h). `rlx import-kit` reads a kit's metrics.csv with it: 100,000 rows were parsed
// a character at a time in Lua and held whole (114.5 s, 941 MB); a record at a time they stream.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/text_file.h"

namespace rlx::util {

// A malformed file: the message is "PATH:LINE:COLUMN: what is wrong; the fix".
struct CsvError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CsvRecord {
  std::vector<std::string> fields;
  std::vector<int> cols;  // the column (1-based, in bytes) where each field starts
  int line = 0;           // the line where the record starts
};

class CsvReader {
 public:
  // Opens the file (UserFileError when the rule refuses it); `what` names it in messages.
  CsvReader(const std::string& path, std::string_view what, uint64_t max_bytes);
  // The next record, or false at the end of the file. A blank line is no record.
  bool next(CsvRecord& out);
  const std::string& path() const { return file_.path(); }

 private:
  int get();   // the next byte, or -1 at the end
  int peek();  // the next byte without taking it
  [[noreturn]] void fail(int line, int col, const std::string& what) const;

  UserFile file_;
  std::vector<char> buf_;
  size_t pos_ = 0, len_ = 0;
  int line_ = 1, col_ = 1;
};

}  // namespace rlx::util
