#include "text/stop_words.h"

#include <algorithm>
#include <map>
#include <string>

namespace parley {

namespace {
// Snowball's English list, then conversational filler of customers' questions.
constexpr std::string_view kEnglish =
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself "
    "she her hers herself it its itself they them their theirs themselves what which who whom "
    "this that these those am is are was were be been being have has had having do does did "
    "doing would should could ought i'm you're he's she's it's we're they're i've you've we've "
    "they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't "
    "aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't "
    "shouldn't can't cannot couldn't mustn't let's that's who's what's here's there's when's "
    "where's why's how's a an the and but if or because as until while of at by for with about "
    "against between into through during before after above below to from up down in out on off "
    "over under again further then once here there when where why how all any both each few more "
    "most other some such no nor not only own same so than too very "
    "can will may might must shall much many please tell know want wanted need like would "
    "also just ok okay hi hello hey thanks thank yes anyone someone something anything "
    "everything thing things really still even ever etc im ive id dont cant wont isnt doesnt "
    "didnt whats hows wheres there's get got getting go going able possible let us one";

constexpr std::string_view kFrench =
    "au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me "
    "même mes moi mon ne nos notre nous on ou par pas pour qu que qui sa se ses son sur ta te tes "
    "toi ton tu un une vos votre vous c d j l à m n s t y été étée étées étés étant suis es est "
    "sommes êtes sont serai seras sera serons serez seront ai as avons avez ont aurai aura "
    "avais avait avions aviez avaient eu était étaient fut comment combien quand où quel quelle "
    "quels quelles est-ce ceci cela ça peux peut pouvez voudrais veux bonjour merci";

constexpr std::string_view kGerman =
    "aber alle allem allen aller alles als also am an ander andere anderem anderen anderer "
    "anderes auch auf aus bei bin bis bist da damit dann das dass dasselbe dazu dein deine "
    "deinem deinen deiner dem demselben den denn der des desselben dessen dich die dies diese "
    "dieselbe dieselben diesem diesen dieser dieses dir doch dort du durch ein eine einem einen "
    "einer eines er es etwas euch euer eure für hab habe haben hat hatte hatten hier hin hinter "
    "ich ihm ihn ihnen ihr ihre im in indem ins ist jede jedem jeden jeder jedes jene jetzt kann "
    "kein keine können könnte machen man mein meine mich mir mit muss musste nach nicht nichts "
    "noch nun nur ob oder ohne sehr sein seine selbst sich sie sind so solche soll sollte "
    "sondern sonst über um und uns unser unter viel vom von vor war waren warst was weg weil "
    "weiter welche welchem welchen welcher welches wenn werde werden wie wieder will wir wird "
    "wirst wo wollen wollte würde würden zu zum zur zwar zwischen wann wieviel bitte danke hallo";

constexpr std::string_view kSpanish =
    "de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya "
    "o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde "
    "todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos "
    "qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella "
    "estar estas algunas algo nosotros mi mis tú te ti tu tus ellas vosotros os mío mía es son "
    "fue era eres soy somos está están estoy he ha han hemos puedo puede pueden cómo cuánto "
    "cuándo dónde cuál hola gracias por favor";

constexpr std::string_view kItalian =
    "ad al allo ai agli all agl alla alle con col coi da dal dallo dai dagli dall dagl dalla "
    "dalle di del dello dei degli dell degl della delle in nel nello nei negli nell negl nella "
    "nelle su sul sullo sui sugli sull sugl sulla sulle per tra contro io tu lui lei noi voi "
    "loro mio mia miei mie tuo tua tuoi tue suo sua suoi sue nostro nostra vostro vostra mi ti "
    "ci vi lo la li le gli ne il un uno una ma ed se perché anche come dov dove che chi cui non "
    "più quale quanto quanti quanta quante quello questo qui quando sono è sei siamo siete ho "
    "hai ha abbiamo avete hanno posso può potete vorrei ciao grazie";

constexpr std::string_view kPortuguese =
    "de a o que e do da em um para com não uma os no se na por mais as dos como mas ao ele das "
    "à seu sua ou quando muito nos já eu também só pelo pela até isso ela entre depois sem mesmo "
    "aos seus quem nas me esse eles você essa num nem suas meu às minha numa pelos elas qual nós "
    "lhe deles essas esses pelas este dele tu te vocês vos lhes meus minhas teu tua nosso nossa "
    "é são foi ser sou está estão tem têm posso pode podem como quanto quando onde olá obrigado";

constexpr std::string_view kDutch =
    "de en van ik te dat die in een hij het niet zijn is was op aan met als voor had er maar om "
    "hem dan zou of wat mijn men dit zo door over ze zich bij ook tot je mij uit der daar haar "
    "naar heb hoe heeft hebben deze u want nog zal me zij nu ge geen omdat iets worden toch al "
    "waren veel meer doen toen moet ben zonder kan hun dus alles onder ja eens hier wie werd "
    "altijd doch wordt wezen kunnen ons zelf tegen na reeds wil kon niets uw iemand geweest "
    "andere waar wanneer hoeveel hallo bedankt";

constexpr std::string_view kRussian =
    "и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было "
    "вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него до вас "
    "нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их "
    "чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому этого какой "
    "совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех никогда можно при "
    "наконец два об другой хоть после над больше тот через эти нас про всего них какая много разве три "
    "эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой им более всегда конечно "
    "всю между сколько какие каков почему ваш ваши";

// Chinese and Japanese have no Snowball lists: their particles, pronouns and question words as
// ICU's dictionaries segment them.
constexpr std::string_view kChinese =
    "的 了 是 在 我 你 您 你们 我们 他 她 它 他们 吗 呢 吧 啊 什么 怎么 怎样 哪 哪里 哪儿 多少 几 "
    "和 与 也 都 就 还 有 没有 这 那 这个 那个 请 可以 能 会 要 想 个 吗？ 是不是 为什么";
constexpr std::string_view kJapanese =
    "は が を に で と の も へ や か ね よ な です ます でき できる でしょ でしょう ました する した "
    "いる ある あり この その あの どこ いつ なに 何 どう どの どれ いくら ください 私 あなた こと もの";

std::vector<std::string_view> split_sorted(std::string_view list) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(' ', pos);
    if (end == std::string_view::npos) end = list.size();
    if (end > pos) out.push_back(list.substr(pos, end - pos));
    pos = end + 1;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}
}  // namespace

const std::vector<std::string_view>& stop_words(std::string_view language) {
  static const auto* const kLists = new std::map<std::string, std::vector<std::string_view>, std::less<>>{
      {"en", split_sorted(kEnglish)}, {"fr", split_sorted(kFrench)},     {"de", split_sorted(kGerman)},
      {"es", split_sorted(kSpanish)}, {"it", split_sorted(kItalian)},    {"pt", split_sorted(kPortuguese)},
      {"nl", split_sorted(kDutch)},  {"ru", split_sorted(kRussian)},
      {"zh", split_sorted(kChinese)}, {"ja", split_sorted(kJapanese)},
  };
  static const std::vector<std::string_view> kNone;
  auto it = kLists->find(language);
  return it == kLists->end() ? kNone : it->second;
}

}  // namespace parley
