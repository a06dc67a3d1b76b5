// The headers most of gpucheck's sources parse, compiled once per target in the wheel build
// (cmake/GpucheckWheel.cmake): nlohmann/json and fmt are most of each source's compile time.
#pragma once
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
