#include "cli/demo_knowledge.h"

namespace parley {

const std::vector<DemoSource>& demo_knowledge() {
  static const std::vector<DemoSource> kSources = {
      {"About Harbour Lane Cycles",
       "Harbour Lane Cycles is a bicycle shop on Harbour Lane in Portwick, open since 2009. We sell "
       "city, touring and electric bikes, repair any make of bicycle, and rent bikes by the hour or the "
       "day.",
       "", ""},
      {"Opening hours",
       "The shop is open Monday to Saturday from 09:00 to 18:00, and on Sundays from 10:00 to 16:00 "
       "between April and September. We close on 25 and 26 December and on 1 January.",
       "", ""},
      {"Bike rental",
       "Rental prices\n\nA city bike costs £8 an hour or £25 a day. An e-bike costs £12 an hour or £35 "
       "a day, with a fully charged battery that lasts about 70 km. Helmets and a lock are included "
       "with every rental. Bring a photo ID and a payment card; we hold a £100 deposit on the card "
       "until the bike comes back.",
       "", ""},
      {"Repairs and servicing",
       "A basic service costs £45 and a full service £90, parts extra. Most repairs are done within "
       "two working days; puncture repairs are done while you wait for £12. Book a repair online or "
       "just bring the bike in.",
       "", ""},
      {"Returns and warranty",
       "New bikes come with a two-year warranty on the frame and one year on parts. Unused "
       "accessories can be returned within 30 days with the receipt for a full refund.",
       "", ""},
      {"", "", "Do you deliver bikes?",
       "Yes. We deliver new bikes free within 15 miles of Portwick; further away delivery costs £30."},
      {"", "", "Can children rent bikes?",
       "Yes. We have children's bikes from age 6, at £5 an hour, and a parent or guardian must sign the "
       "rental form."},
      {"", "", "Do you buy used bikes?",
       "We take used bikes in part exchange when you buy a new one, but we do not buy bikes for cash."},
  };
  return kSources;
}

}  // namespace parley
