#include "tools/report/html_page.hpp"

#include <fmt/format.h>

#include "tools/report/html_escape.hpp"

namespace dcsim::tools::report {

namespace {

constexpr const char* kStyle =
    R"(body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:960px;padding:16px 24px;color:#222;background:#fff}
h1{font-size:1.5em;margin:0.4em 0 0.1em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:1.6em}
.subtitle{color:#555;margin:0 0 1em}nav a{margin-right:1em}
table{border-collapse:collapse;margin:0.5em 0}td,th{padding:2px 10px 2px 0;text-align:left;vertical-align:top}
th{color:#555;font-weight:600;white-space:nowrap}td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-style:italic}p.absent{color:#666}
svg.chart{display:block;margin:10px 0;font-size:11px;background:#fff}
svg.chart .title{font-size:13px;font-weight:600}svg.chart .label{font-size:12px}
svg.chart .grid{stroke:#e5e5e5}svg.chart .frame{fill:none;stroke:#999}
svg.chart .line{fill:none;stroke-width:1.5}svg.chart .band{stroke:none;fill-opacity:0.25}
svg.chart .shade{fill:#D55E00;fill-opacity:0.14}svg.chart .mark{fill:#D55E00;fill-opacity:0.8}svg.chart .hover{font-size:11px;fill:#333}
footer{margin-top:2em;color:#777;font-size:0.85em})";

// Hover readout: the data coordinates under the pointer, from each line chart's data-x0/x1/y0/y1
// and plot box (data-plot). Nothing else on the page needs a script.
constexpr const char* kScript = R"((function(){
  document.querySelectorAll('svg.chart[data-plot]').forEach(function(svg){
    var box=svg.getAttribute('data-plot').split(' ').map(Number);
    var x0=+svg.dataset.x0,x1=+svg.dataset.x1,y0=+svg.dataset.y0,y1=+svg.dataset.y1;
    var out=svg.querySelector('text.hover');
    if(!out)return;
    svg.addEventListener('mousemove',function(e){
      var r=svg.getBoundingClientRect();
      var px=(e.clientX-r.left)*svg.viewBox.baseVal.width/r.width;
      var py=(e.clientY-r.top)*svg.viewBox.baseVal.height/r.height;
      if(px<box[0]||px>box[2]||py<box[1]||py>box[3]){out.textContent='';return;}
      var x=x0+(px-box[0])/(box[2]-box[0])*(x1-x0),y=y1-(py-box[1])/(box[3]-box[1])*(y1-y0);
      out.textContent='x '+x.toPrecision(4)+', y '+y.toPrecision(4);
    });
    svg.addEventListener('mouseleave',function(){out.textContent='';});
  });
})();)";

}  // namespace

std::string html_page(const ReportPage& page) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>dcsim report: {}</title>\n<style>\n{}\n</style>\n</head>\n<body>\n",
                     html_escape(page.title), kStyle);
  out += fmt::format("<h1>{}</h1>\n<p class=\"subtitle\">{}</p>\n", html_escape(page.title),
                     html_escape(page.subtitle));
  out += "<nav>";
  for (const auto& s : page.sections) {
    if (s.absent.empty()) out += fmt::format("<a href=\"#{}\">{}</a>", s.id, html_escape(s.title));
  }
  out += "</nav>\n";
  for (const auto& s : page.sections) {
    if (!s.absent.empty()) {
      out += fmt::format(
          "<p class=\"absent\" data-section=\"{}\" data-absent=\"true\"><b>{}</b> left out: "
          "{}</p>\n",
          s.id, html_escape(s.title), html_escape(s.absent));
      continue;
    }
    out += fmt::format("<section id=\"{0}\" data-section=\"{0}\">\n<h2>{1}</h2>\n{2}</section>\n",
                       s.id, html_escape(s.title), s.html);
  }
  out +=
      "<footer>Written by dcsim report. Self-contained: no part of this page is fetched from the "
      "network.</footer>\n";
  out += fmt::format("<script>\n{}\n</script>\n</body>\n</html>\n", kScript);
  return out;
}

}  // namespace dcsim::tools::report
