#pragma once
// Writing a file from a stream: a renderer writes a large report straight into the file as it makes it,
// so the output is never held whole in memory (a 250 MB report's HTML would be another string that size).
#include <functional>
#include <ostream>
#include <string>

namespace gpucheck {

/// What writes a file's content into a stream (a renderer).
using FileWriter = std::function<void(std::ostream&)>;

/// write_file_atomic (core/files.h), the content streamed by `content` into the file: the same temporary
/// file, fsync and rename, the same handling of links, devices and modes. An exception `content` throws
/// leaves no file (the temporary is removed) and is passed on.
void write_file_atomic(const std::string& path, const FileWriter& content, bool no_clobber = false);

}  // namespace gpucheck
