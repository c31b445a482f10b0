// Shared helpers of the crawl end-to-end suites: the harbour site (a small website with a shared
// menu, cookie banner and footer, robots.txt with a Disallow, a sitemap, an off-site link, a
// redirect chain, a 404, a slow page, a Latin-1 page, a PDF, an image, a duplicate page and a
// chain of guides down to a deep page that alone states a fact), a site of N chained pages, and
// waiting for a crawl and for training to end.
#pragma once

#include <chrono>
#include <thread>

#include "harness.h"
#include "test_site.h"

namespace parley::e2e {

// The deep page's fact, and the question only it answers.
inline constexpr const char* kIslandsPath = "/docs/routes/islands";
inline constexpr const char* kIslandsQuestion = "When does the ferry to Skerry Island leave?";

inline std::string harbour_page(const std::string& title, const std::string& content) {
  return "<!doctype html><html><head><meta charset=\"utf-8\"><title>" + title +
         "</title></head><body>"
         "<nav><a href=\"/\">Home</a> <a href=\"/about\">About us</a> <a href=\"/tickets\">Tickets"
         "</a> <a href=\"/docs/\">Guides</a></nav>"
         "<div class=\"cookies\"><p>We use cookies to remember your ticket basket between visits."
         "</p></div>"
         "<div class=\"content\">" +
         content +
         "</div>"
         "<footer><p>Harbour Ferries Ltd, Quay Street 1. Call us on 0100 200 300.</p></footer>"
         "</body></html>";
}

inline std::string islands_page(const std::string& fact) {
  return harbour_page("Island routes", "<h1>Island routes</h1><p>" + fact + "</p>");
}

inline void build_harbour_site(TestSite& site) {
  const std::string home = harbour_page(
      "Harbour Ferries",
      "<h1>Harbour Ferries</h1><p>Ferries to the islands every day of the year.</p>"
      "<p><a href=\"/about#team\">Our team</a> <a href=\"http://example.com/partner\">Partner</a> "
      "<a href=\"/private/staff\">Staff</a> <a href=\"/old-page\">Lost property</a> "
      "<a href=\"/missing\">Timetable 2019</a> <a href=\"/slow\">Live map</a> "
      "<a href=\"/latin1\">En fran&ccedil;ais</a> <a href=\"/guide.pdf\">Travel guide</a> "
      "<a href=\"/images/map.png\">Map</a> <a href=\"/photo\">Photo</a></p>");
  site.set_html("/", home);
  site.set_html("/index.html", home);
  site.set_html("/about",
                harbour_page("About us",
                             "<h1>About us</h1><p>Harbour Ferries was founded in 1921 by "
                             "the Lund family.</p><p><a href=\"/index.html\">Start</a></p>"));
  SitePage tickets;
  tickets.body = harbour_page("Tickets",
                              "<h1>Tickets</h1><table><tr><th>Adult ticket</th><td>45 EUR</td></tr>"
                              "<tr><th>Child ticket</th><td>20 EUR</td></tr></table>");
  tickets.gzip = true;
  site.set("/tickets", tickets);
  site.set_html("/docs/", harbour_page("Guides",
                                       "<h1>Guides</h1><p>Read our <a href=\"routes\">"
                                       "route guide</a> before you travel.</p>"));
  site.set_html("/docs/routes",
                harbour_page("Routes",
                             "<h1>Routes</h1><p>We sail to four islands. See the "
                             "<a href=\"/docs/routes/islands\">island routes</a>.</p>"));
  site.set_html(
      kIslandsPath,
      islands_page("The ferry to Skerry Island leaves from pier 7 at 09:40 every morning."));
  site.set_html("/private/staff", harbour_page("Staff", "<p>The staff rota is kept here.</p>"));
  site.set("/old-page", SitePage{301, "text/html", "", "/moved-once"});
  site.set("/moved-once", SitePage{302, "text/html", "", site.url("/new-page")});
  site.set_html("/new-page", harbour_page("Lost property",
                                          "<h1>Lost property</h1><p>Lost property "
                                          "is kept at the harbour office for 90 "
                                          "days.</p>"));
  SitePage slow;
  slow.body = harbour_page("Live map", "<p>The boats on the map.</p>");
  slow.delay_ms = 4000;
  site.set("/slow", slow);
  SitePage latin;
  latin.content_type = "text/html; charset=iso-8859-1";
  latin.body =
      "<!doctype html><html><head><title>En fran\xe7"
      "ais</title></head><body><p>Le caf\xe9 "
      "\xe0 bord sert une cr\xe8me br\xfbl\xe9"
      "e tous les jours.</p></body></html>";
  site.set("/latin1", latin);
  SitePage pdf;
  pdf.content_type = "application/pdf";
  pdf.body = tiny_pdf("Travel guide",
                      {"Bicycles travel free on every crossing.", "Dogs travel free on a lead."});
  site.set("/guide.pdf", pdf);
  SitePage photo;
  photo.content_type = "image/png";
  photo.body = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) + std::string(64, '\0');
  site.set("/photo", photo);
  site.set("/robots.txt", SitePage{200, "text/plain",
                                   "User-agent: *\nDisallow: /private/\n\nSitemap: " +
                                       site.url("/sitemap.xml") + "\n"});
  site.set(
      "/sitemap.xml",
      SitePage{
          200, "application/xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/"
          "schemas/sitemap/0.9\"><url><loc>" +
              site.url("/") + "</loc></url><url><loc>" + site.url("/about") +
              "</loc></url><url><loc>" + site.url("/tickets") + "</loc></url></urlset>"});
}

// The address of the chain site's page `i`.
inline std::string chain_page(int i) { return "/chain/page-" + std::to_string(i) + ".html"; }

// A site of `n` pages, each linking to the next: chain_page(0) … chain_page(n - 1), each with a
// fact of its own; no robots.txt, no sitemap.
inline void build_chain_site(TestSite& site, int n) {
  for (int i = 0; i < n; ++i) {
    std::string next = i + 1 < n ? "<a href=\"" + chain_page(i + 1) + "\">next</a>" : "";
    site.set_html(chain_page(i), "<html><head><title>Page " + std::to_string(i) +
                                     "</title></head><body><p>Locker " + std::to_string(i) +
                                     " holds spare part number " + std::to_string(1000 + i) +
                                     ".</p>" + next + "</body></html>");
  }
}

// Polls the crawl until it has ended (bounded); returns it.
inline Json wait_crawl(const Server& s, const std::string& token, const std::string& id,
                       int seconds = 90) {
  Json crawl;
  for (int i = 0; i < seconds * 20; ++i) {
    auto r = send(s, "GET", "/console/v1/crawls/" + id, token, "");
    crawl = r.json()["data"];
    if (r.status == 200 && crawl["status"] != "queued" && crawl["status"] != "running")
      return crawl;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ADD_FAILURE() << "the crawl did not end: " << crawl.dump();
  return crawl;
}

// Polls the agent's sources until none waits for training (bounded); returns the listing.
inline Json wait_trained(const Server& s, const std::string& token, const std::string& agent) {
  Json body;
  for (int i = 0; i < 1200; ++i) {
    auto r = send(s, "GET", "/console/v1/agents/" + agent + "/sources", token, "");
    body = r.json();
    if (r.status == 200 && body["training"]["done"] == true) return body;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ADD_FAILURE() << "training did not finish: " << body.dump();
  return body;
}

// The agent's source whose url is `url`, or null.
inline Json source_at(const Json& listing, const std::string& url) {
  for (const auto& s : listing["data"])
    if (s["url"] == url) return s;
  return nullptr;
}

}  // namespace parley::e2e
