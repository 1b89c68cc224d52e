// output_check.h: is an output path writable, checked before the work that produces it (issue 25).
//
// `rlx train --log-dir logs` trained for minutes and only then found that logs/ did not exist, or
// was a file, or was read-only: the work was lost. Every command now checks each of its outputs
// first, with the kind of output it is:
//   - Folder:   a folder files are written into (--log-dir, the report's folder, figures/). Created
//               with its parents when missing, as the seed's kit does (os.makedirs); an existing
//               file there, or a parent that cannot hold it, is an error.
//   - File:     a file replaced whole (util::AtomicFile: a temporary file in its folder, renamed).
//               Its folder must exist (or be created, with create_parent) and take a new file; a
//               folder in its place is an error; an existing SQLite database is refused unless the
//               output is one (allow_sqlite): `rlx env --markdown study.db` must not replace a study.
//   - Append:   a file appended to (metrics.csv). As File, and an existing file must be a regular
//               file this process can open for appending.
//   - Database: an SQLite database (--db). Its folder must exist, never created (a typo must not
//               scatter databases), and take new files (SQLite's journal sits beside it); an
//               existing file must be an SQLite database (or empty) that this process can write.
// Writability is tested by creating (and removing) a file in the folder: the only test that
// agrees with the kernel (read-only mounts, ACLs, root's permissions, quotas of inodes).
// With create = false (a dry run) nothing is created: a missing folder passes when the nearest
// existing parent could hold it.
#pragma once

#include <string>

namespace rlx::util {

enum class OutputKind { Folder, File, Append, Database };

struct OutputCheck {
  bool create = true;          // create a missing Folder (and, with create_parent, a File's folder)
  bool create_parent = false;  // File and Append: create a missing folder for them too
  bool allow_sqlite = false;   // File: the output is itself an SQLite database (rlx merge OUT)
};

// Throws std::runtime_error with a plain message naming the path, the cause and the fix.
void check_output(const std::string& path, OutputKind kind, const OutputCheck& opts = {});

// True when the file at path starts with SQLite's header ("SQLite format 3\0").
bool is_sqlite_file(const std::string& path);

}  // namespace rlx::util
