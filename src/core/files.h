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
/// `path` is taken the way a shell's `>` takes it: a symlink's target is replaced and the link kept; a
/// device node, FIFO, terminal or socket (/dev/null, /dev/stdout) is written in place, never replaced; a
/// directory or an empty name is an InputError.
void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber = false);

/// Writes a new file STEM+EXT, or STEM-2+EXT, STEM-3+EXT, ... whichever name is free, claimed atomically so
/// concurrent writers into one directory never collide or fail; returns the path written.
std::string write_new_file(const std::string& stem, const std::string& extension, const std::string& content);

/// Creates the directory and its parents; throws InputError on failure.
void make_dirs(const std::string& path);

}  // namespace gpucheck
