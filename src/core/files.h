#pragma once
// File helpers with the error behaviour every command needs: clear InputError messages, atomic writes.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace gpucheck {

/// The most gpucheck reads of one document (an inventory, a report, a knowledge-base file).
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{256} << 20;

/// Throws InputError unless `path` names something a document can be read from: a regular file, a FIFO or
/// a pipe (`<(cmd)`); a directory, device node (/dev/zero) or socket is refused with the reason.
void check_input_file(const std::string& path);

/// check_input_file, and also refuses a named FIFO (mkfifo), whose writer may never come: for inputs that
/// are read to their end as a stream (explain's log). An anonymous pipe (`<(cmd)`, /dev/fd/N, /dev/stdin
/// on a pipe) is accepted, since its writer exists. Never blocks: the name is opened with O_NONBLOCK.
void check_stream_input(const std::string& path);

/// Reads a whole file of at most `max_bytes`; throws InputError("cannot read FILE: reason") for what
/// check_input_file refuses, a read error, or a larger file. Never waits for a FIFO's writer to appear.
std::string read_file(const std::string& path, std::size_t max_bytes = kMaxDocumentBytes);

/// The text of a small kernel file such as /proc/PID/stat, or "" when it cannot be read. Never throws: a
/// process ends between listing /proc and reading its entry (ESRCH), which is no error to whoever scans.
std::string read_proc_text(const std::string& path);

/// Parses a JSON file; throws InputError naming the file and the parse position (or a number too large for
/// any C++ type: nlohmann's out_of_range.406, found by fuzz.manifest).
nlohmann::json read_json_file(const std::string& path);

/// `j[key]` as a whole number in [lo, hi] (`fallback` when absent); anything else (a string, a fraction, a
/// float or integer outside the range) throws InputError("KEY must be a whole number in [lo, hi]").
/// Converting a JSON float such as 6.7e77 to int with nlohmann's get<int>() is undefined behaviour (UBSan,
/// found by fuzz.signatures): every integer field of a document gpucheck reads goes through here.
long long json_int(const nlohmann::json& j, const std::string& key, long long fallback, long long lo, long long hi);

/// Writes `content` to a temporary file beside `path`, fsyncs it and renames it over `path`, so a reader
/// (or a crash) never sees a half-written file. With `no_clobber`, an existing `path` is an InputError.
/// `path` is taken the way a shell's `>` takes it: a symlink is opened and written through (O_CREAT|O_TRUNC,
/// so the kernel's link protections apply; not atomic, as with `>`), never resolved here and renamed over,
/// and another user's link in a sticky or world-writable directory is refused; a device node, FIFO, terminal
/// or socket (/dev/null, /dev/stdout) is written in place, never replaced; a directory or an empty name is
/// an InputError. A new file gets 0666 less the umask; a replaced file keeps its mode and owner.
void write_file_atomic(const std::string& path, const std::string& content, bool no_clobber = false);

/// Writes a new file STEM+EXT, or STEM-2+EXT, STEM-3+EXT, ... whichever name is free, claimed atomically so
/// concurrent writers into one directory never collide or fail; returns the path written.
std::string write_new_file(const std::string& stem, const std::string& extension, const std::string& content);

/// Creates `dir` (and its parents) and proves it writable by creating and removing a file there, so a
/// command that works for minutes (`run --level long`, `bench`) finds out before it starts, not after.
/// Throws InputError("cannot write into DIR: reason") otherwise (read-only file system, permissions).
void check_writable_dir(const std::string& dir);

/// Creates the directory and its parents; throws InputError on failure.
void make_dirs(const std::string& path);

/// What a remembered answer about a file is valid for: its device, inode, size, mtime and ctime ("" when it
/// cannot be stat'ed). A file replaced, rewritten or touched gets another identity.
std::string file_identity(const std::string& path);

/// Where gpucheck keeps what it remembers between runs: $XDG_CACHE_HOME/gpucheck, else ~/.cache/gpucheck;
/// "" when neither is an absolute path.
std::string cache_dir();

}  // namespace gpucheck
