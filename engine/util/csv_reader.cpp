// csv_reader.cpp: see csv_reader.h.
#include "util/csv_reader.h"

#include <fmt/format.h>

namespace rlx::util {

CsvReader::CsvReader(const std::string& path, std::string_view what, uint64_t max_bytes)
    : file_(path, what, max_bytes), buf_(size_t{1} << 16) {}

int CsvReader::peek() {
  if (pos_ == len_) {
    len_ = file_.read(buf_.data(), buf_.size());
    pos_ = 0;
    if (len_ == 0) return -1;
  }
  return static_cast<unsigned char>(buf_[pos_]);
}

int CsvReader::get() {
  const int c = peek();
  if (c >= 0) ++pos_;
  return c;
}

void CsvReader::fail(int line, int col, const std::string& what) const {
  throw CsvError(fmt::format("{}:{}:{}: {}", file_.path(), line, col, what));
}

bool CsvReader::next(CsvRecord& out) {
  for (;;) {
    if (peek() < 0) return false;
    out.fields.clear();
    out.cols.clear();
    out.line = line_;
    for (;;) {
      std::string field;
      out.cols.push_back(col_);
      if (peek() == '"') {
        const int qline = line_, qcol = col_;
        get();
        ++col_;
        for (;;) {
          const int c = get();
          if (c < 0)
            fail(qline, qcol,
                 "this quoted field is never closed; add the closing \" (a quote inside a field is written "
                 "\"\")");
          if (c == '"' && peek() == '"') {
            get();
            field += '"';
            col_ += 2;
          } else if (c == '"') {
            ++col_;
            break;
          } else {
            field += static_cast<char>(c);
            if (c == '\n') {
              ++line_;
              col_ = 1;
            } else {
              ++col_;
            }
          }
        }
        const int after = peek();
        if (after != ',' && after != '\n' && after != '\r' && after >= 0)
          fail(line_, col_, "text after a closing quote; quote the whole field");
      } else {
        for (int c; (c = peek()) >= 0 && c != ',' && c != '\r' && c != '\n';) {
          field += static_cast<char>(get());
          ++col_;
        }
      }
      out.fields.push_back(std::move(field));
      const int c = get();
      if (c == ',') {
        ++col_;
        continue;
      }
      if (c == '\r' && peek() == '\n') get();
      ++line_;
      col_ = 1;
      break;
    }
    if (!(out.fields.size() == 1 && out.fields[0].empty())) return true;
  }
}

}  // namespace rlx::util
