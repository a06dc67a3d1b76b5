#include "model/fix_text.h"

#include <cctype>
#include <vector>

namespace gpucheck::model {
namespace {

// A shell line rather than a word or an option: it runs a program with arguments.
bool is_command(const std::string& span) {
  if (span.empty() || span.front() == '-') return false;
  return span.find(' ') != std::string::npos;
}

bool ends_with_word(const std::string& s, const std::string& word) {
  if (s.size() < word.size() || s.compare(s.size() - word.size(), word.size(), word) != 0) return false;
  return s.size() == word.size() || s[s.size() - word.size() - 1] == ' ' || s[s.size() - word.size() - 1] == ',';
}

void trim_right(std::string& s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
}

// The prose before a command that ends the sentence loses what only led to it: "..., then", ": ", "and".
void drop_lead_in(std::string& prose) {
  for (bool changed = true; changed;) {
    changed = false;
    trim_right(prose);
    for (const char* word : {"then", "and", "or"})
      if (ends_with_word(prose, word)) {
        prose.resize(prose.size() - std::string(word).size());
        changed = true;
      }
    if (!prose.empty() && (prose.back() == ':' || prose.back() == ',' || prose.back() == '(')) {
      prose.pop_back();
      changed = true;
    }
  }
}

struct Span {
  std::size_t open, close;  // the backticks
};

// The backtick spans of `text` that are shell lines.
std::vector<Span> command_spans(const std::string& text) {
  std::vector<Span> out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t open = text.find('`', i);
    if (open == std::string::npos) break;
    std::size_t close = text.find('`', open + 1);
    if (close == std::string::npos) break;
    if (is_command(text.substr(open + 1, close - open - 1))) out.push_back({open, close});
    i = close + 1;
  }
  return out;
}

// True when nothing but joining words and punctuation lies between `from` and `to` (the end of the text,
// or the next command): the sentence says nothing more after the command.
bool only_joiners(const std::string& text, std::size_t from, std::size_t to) {
  std::string word;
  for (std::size_t i = from; i <= to; ++i) {
    const char c = i < to ? text[i] : ' ';
    if (std::isspace(static_cast<unsigned char>(c)) || std::string(",.;:()").find(c) != std::string::npos) {
      if (!word.empty() && word != "then" && word != "and" && word != "or") return false;
      word.clear();
    } else {
      word += c;
    }
  }
  return true;
}

}  // namespace

Fix fix_from_text(const std::string& text) {
  Fix fix;
  const std::vector<Span> spans = command_spans(text);
  if (spans.empty()) {
    fix.summary = text;
    return fix;
  }
  std::string prose;
  std::size_t i = 0;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const Span& s = spans[k];
    fix.commands.push_back(text.substr(s.open + 1, s.close - s.open - 1));
    prose += text.substr(i, s.open - i);
    i = s.close + 1;
    const std::size_t next = k + 1 < spans.size() ? spans[k + 1].open : text.size();
    if (only_joiners(text, i, next)) {
      drop_lead_in(prose);  // the command ends the sentence, or leads to the next command
      i = next;
    } else {
      // The sentence goes on after the command: it names it.
      prose += spans.size() == 1 ? "the command below" : "command " + std::to_string(k + 1) + " below";
    }
  }
  prose += text.substr(i);
  drop_lead_in(prose);
  fix.summary = prose.empty() ? text : prose;
  return fix;
}

}  // namespace gpucheck::model
