#pragma once
// The text renderer's parts: one function per command's typed details (model/details.h), each in
// <command>_text.cpp unless said, and the shared block for one Finding. render_text() picks the part by the
// type of the report's details; details without their own part get findings().
#include <ostream>

#include "model/details.h"
#include "render/render.h"

namespace gpucheck::render::text {

void run(const model::Report& r, std::ostream& out, const RenderOptions& o);  // terminal.cpp
void doctor(const model::Report& r, const model::DoctorDetails& d, std::ostream& out, const RenderOptions& o);
void explain(const model::Report& r, const model::ExplainDetails& d, std::ostream& out, const RenderOptions& o);
void abi(const model::Report& r, const model::AbiDetails& d, std::ostream& out, const RenderOptions& o);
void env(const model::Report& r, std::ostream& out, const RenderOptions& o);  // inventory_text.cpp
void list(const model::Report& r, std::ostream& out, const RenderOptions& o);
void version(const model::VersionDetails& d, std::ostream& out);
void modulefiles(const model::Report& r, const model::ModulefilesDetails& d, std::ostream& out,
                 const RenderOptions& o);  // envtools_text.cpp
void fleet(const model::Report& r, std::ostream& out, const RenderOptions& o);
void compare(const model::Report& r, std::ostream& out, const RenderOptions& o);
void diff(const model::Report& r, const model::DiffDetails& d, std::ostream& out, const RenderOptions& o);
/// Markdown of a (terminal-safe) compare report: its table of benchmarks (compare_markdown.cpp).
void markdown_compare(const model::Report& r, std::ostream& out);
/// Any report: its notes, then every section's findings as blocks.
void findings(const model::Report& r, std::ostream& out, const RenderOptions& o);  // finding_text.cpp

// The one layout of explain, doctor and run (and every other verdict): a headline per finding, under it
// its evidence lines, then advice_lines() (why, the ranked fixes with their commands), and at the end of
// the text closing(): the verdict line and "Next step: ...". render_text() wraps every line at o.width.

/// One Finding: "ERROR title  [id]", its summary, evidence_lines() and advice_lines().
void finding_block(const Finding& f, std::ostream& out, const RenderOptions& o);
/// "what: value  (source)" per evidence item; a multi-line value continues on "  | " lines.
void evidence_lines(const Finding& f, const std::string& indent, std::ostream& out);
/// "why: ...", "fix, best first:" with each fix_block(), and (verbose) "source: ..." lines.
void advice_lines(const Finding& f, const std::string& indent, bool verbose, std::ostream& out);
/// The end of every verdict: the verdict line (model/verdict.h) and "Next step: ...".
void closing(const model::Report& r, std::ostream& out, const RenderOptions& o);
/// One ranked fix, indented by `indent`.
void fix_block(const Fix& fix, const std::string& indent, std::ostream& out);
/// "ERROR", "WARN ", "INFO ", "pass ", ... coloured when o.color.
std::string status_word(Status s, bool color);

}  // namespace gpucheck::render::text
