// dir_list.h: the regular files of one folder, by name (rlx import-kit reads a kit's logs/ncu/*.csv).
#pragma once

#include <string>
#include <vector>

namespace rlx::util {

// The names (not paths) of the regular files directly in `dir` whose names end with `suffix`
// (empty: every file), sorted bytewise so an import is the same on every filesystem. With
// not_only_regular, every entry that is not a folder (a FIFO, a socket, a link to a device): a
// caller that reads each file by util/text_file.h's rule then refuses it by name instead of
// skipping it silently (issue 48: a FIFO at logs/ncu/LABEL.csv). A missing folder gives an empty
// list when missing_ok, else throws; a path that is not a folder, or one that cannot be read,
// throws naming it.
std::vector<std::string> list_files(const std::string& dir, const std::string& suffix = "",
                                    bool missing_ok = false, bool not_only_regular = false);

}  // namespace rlx::util
