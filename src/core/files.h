#pragma once
// File helpers with the error behaviour every command needs: clear InputError messages, atomic writes.
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck {

/// Reads a whole file; throws InputError("cannot read FILE: reason").
std::string read_file(const std::string& path);

/// Parses a JSON file; throws InputError naming the file and the parse position.
nlohmann::json read_json_file(const std::string& path);

/// Writes `content` to a temporary file beside `path`, fsyncs it and renames it over `path`, so a reader
/// (or a crash) never sees a half-written file. With `no_clobber`, an existing `path` is an InputError.
void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber = false);

/// Creates the directory and its parents; throws InputError on failure.
void make_dirs(const std::string& path);

}  // namespace gpucheck
