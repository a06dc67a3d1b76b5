#include "inventory/pp_condition.h"

#include <cctype>
#include <cstdlib>

namespace gpucheck::inventory {

namespace {

using Token = PpCondition::Token;

bool tokenize(const std::string& s, std::vector<Token>& out) {
  static const char* kOps[] = {"||", "&&", "==", "!=", "<=", ">=", "<", ">", "!", "(", ")", "+", "-", "*", "/", "%"};
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) { ++i; continue; }
    if (std::isdigit(c)) {
      char* end = nullptr;
      long long v = std::strtoll(s.c_str() + i, &end, 0);  // 0x.. and 0.. as the preprocessor reads them
      std::size_t j = static_cast<std::size_t>(end - s.c_str());
      while (j < s.size() && (s[j] == 'u' || s[j] == 'U' || s[j] == 'l' || s[j] == 'L')) ++j;
      if (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '.')) return false;
      out.push_back({Token::kNumber, s.substr(i, j - i), v});
      i = j;
      continue;
    }
    if (std::isalpha(c) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      out.push_back({Token::kIdent, s.substr(i, j - i), 0});
      i = j;
      continue;
    }
    bool matched = false;
    for (const char* op : kOps) {
      std::string o(op);
      if (s.compare(i, o.size(), o) == 0) {
        out.push_back({Token::kOp, o, 0});
        i += o.size();
        matched = true;
        break;
      }
    }
    if (!matched) return false;
  }
  out.push_back({});
  return true;
}

class Parser {
 public:
  Parser(const std::vector<Token>& t, const std::map<std::string, long long>& m) : t_(t), m_(m) {}

  std::optional<long long> parse() {
    auto v = binary(0);
    if (!v || t_[pos_].kind != Token::kEnd) return std::nullopt;
    return v;
  }

 private:
  // Precedence levels, lowest first.
  static int level(const std::string& op) {
    if (op == "||") return 1;
    if (op == "&&") return 2;
    if (op == "==" || op == "!=") return 3;
    if (op == "<" || op == ">" || op == "<=" || op == ">=") return 4;
    if (op == "+" || op == "-") return 5;
    if (op == "*" || op == "/" || op == "%") return 6;
    return 0;
  }

  std::optional<long long> binary(int min_level) {
    auto lhs = unary();
    if (!lhs) return std::nullopt;
    while (t_[pos_].kind == Token::kOp && level(t_[pos_].text) > min_level) {
      const std::string& op = t_[pos_++].text;
      auto rhs = binary(level(op));
      if (!rhs) return std::nullopt;
      long long a = *lhs, b = *rhs;
      if (op == "||") lhs = (a || b);
      else if (op == "&&") lhs = (a && b);
      else if (op == "==") lhs = (a == b);
      else if (op == "!=") lhs = (a != b);
      else if (op == "<") lhs = (a < b);
      else if (op == ">") lhs = (a > b);
      else if (op == "<=") lhs = (a <= b);
      else if (op == ">=") lhs = (a >= b);
      else if (op == "+") lhs = a + b;
      else if (op == "-") lhs = a - b;
      else if (op == "*") lhs = a * b;
      else if (b == 0) return std::nullopt;  // division by zero is an error in #if too
      else lhs = op == "/" ? a / b : a % b;
    }
    return lhs;
  }

  std::optional<long long> unary() {
    // Garbage like "((((((..." must not recurse the stack away.
    if (++depth_ > kMaxDepth) return std::nullopt;
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    const Token& t = t_[pos_];
    if (t.kind == Token::kOp && (t.text == "!" || t.text == "-" || t.text == "+")) {
      ++pos_;
      auto v = unary();
      if (!v) return std::nullopt;
      return t.text == "!" ? !*v : t.text == "-" ? -*v : *v;
    }
    return primary();
  }

  std::optional<long long> primary() {
    const Token& t = t_[pos_];
    if (t.kind == Token::kNumber) return ++pos_, t.value;
    if (t.kind == Token::kOp && t.text == "(") {
      ++pos_;
      auto v = binary(0);
      if (!v || !(t_[pos_].kind == Token::kOp && t_[pos_].text == ")")) return std::nullopt;
      ++pos_;
      return v;
    }
    if (t.kind != Token::kIdent) return std::nullopt;
    ++pos_;
    if (t.text == "defined") {
      bool paren = t_[pos_].kind == Token::kOp && t_[pos_].text == "(";
      if (paren) ++pos_;
      if (t_[pos_].kind != Token::kIdent) return std::nullopt;
      long long v = m_.count(t_[pos_++].text) ? 1 : 0;
      if (paren) {
        if (!(t_[pos_].kind == Token::kOp && t_[pos_].text == ")")) return std::nullopt;
        ++pos_;
      }
      return v;
    }
    // A function-like macro (`__has_include(x)`, `__GNUC_PREREQ(4, 9)`) is beyond this evaluator.
    if (t_[pos_].kind == Token::kOp && t_[pos_].text == "(") return std::nullopt;
    auto it = m_.find(t.text);
    return it == m_.end() ? 0 : it->second;
  }

  static constexpr int kMaxDepth = 200;
  const std::vector<Token>& t_;
  const std::map<std::string, long long>& m_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

std::optional<PpCondition> PpCondition::parse(const std::string& expr) {
  PpCondition c;
  if (!tokenize(expr, c.tokens_) || c.tokens_.size() == 1) return std::nullopt;
  return c;
}

std::optional<long long> PpCondition::eval(const std::map<std::string, long long>& macros) const {
  return Parser(tokens_, macros).parse();
}

std::optional<long long> eval_pp_condition(const std::string& expr, const std::map<std::string, long long>& macros) {
  auto c = PpCondition::parse(expr);
  return c ? c->eval(macros) : std::nullopt;
}

}  // namespace gpucheck::inventory
