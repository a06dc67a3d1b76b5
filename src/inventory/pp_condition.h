#pragma once
// Evaluates the expression of a C preprocessor `#if` the way the preprocessor does (integers, `defined`,
// ! - * / % + - < > <= >= == != && ||, parentheses; an identifier without a value is 0), for a given set of
// macro values. Used to read which compiler versions a toolkit's host_config.h guard rejects.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpucheck::inventory {

/// An expression tokenised once, for evaluating it under many sets of macro values.
class PpCondition {
 public:
  struct Token {
    enum Kind { kNumber, kIdent, kOp, kEnd } kind = kEnd;
    std::string text;
    long long value = 0;
  };
  /// nullopt when `expr` has characters no #if expression has.
  static std::optional<PpCondition> parse(const std::string& expr);
  /// The value with `macros` defined; nullopt when the expression is not one this evaluator understands
  /// (function-like macros such as `__has_include(x)`, a syntax error, division by zero).
  std::optional<long long> eval(const std::map<std::string, long long>& macros) const;

 private:
  std::vector<Token> tokens_;
};

/// PpCondition::parse(expr)->eval(macros) in one call.
std::optional<long long> eval_pp_condition(const std::string& expr, const std::map<std::string, long long>& macros);

}  // namespace gpucheck::inventory
