#pragma once
// The HTML report's one inline stylesheet (no external font or file): readable at 1280 px and on a
// 400 px phone, where tables become stacked cards and the verdict stays first.
namespace gpucheck::render::html {

const char* stylesheet();

}  // namespace gpucheck::render::html
