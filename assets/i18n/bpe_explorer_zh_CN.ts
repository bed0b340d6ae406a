<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Errors</name>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="16"/>
        <source>%(name)s looks like %(kind)s text. Convert it to UTF-8 first (for example with iconv) and open it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="18"/>
        <source>%(name)s looks like a binary file, not text. Choose a UTF-8 text file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="19"/>
        <source>%(name)s does not look like UTF-8 text. Choose a UTF-8 text file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="20"/>
        <source>The corpus file %(path)s does not exist. Check the path.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="21"/>
        <source>%(path)s is a folder. Choose a text file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="22"/>
        <source>Cannot read the corpus file %(path)s: %(reason)s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="23"/>
        <source>The pattern must be gpt2, gpt4, none or a non-empty regular expression.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="24"/>
        <source>The pre-tokenizer regex %(pattern)s is not valid (%(detail)s). Fix it or choose gpt2, gpt4 or none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="26"/>
        <source>The pre-tokenizer regex %(pattern)s only matches the empty string.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="27"/>
        <source>A special token is empty. Remove it from the list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/errors_text.py" line="28"/>
        <source>The special token %(token)s is listed twice. List each special token once.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="15"/>
        <source>BPE (byte-pair encoding)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="16"/>
        <source>A way to build a tokenizer: start from single bytes and, again and again, join the pair of neighbouring tokens that occurs most often into a new token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="18"/>
        <source>Token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="18"/>
        <source>A piece of text the model sees as one unit; each has a number, its id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="19"/>
        <source>Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="20"/>
        <source>All tokens with their ids: the 256 bytes, the special tokens, then one token per merge.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="21"/>
        <source>Byte pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="22"/>
        <source>Two tokens standing next to each other. Their count is how often they stand together.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="23"/>
        <source>Merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="24"/>
        <source>Joining the most frequent pair into a new token. The list of merges, in order, is what training learns.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="25"/>
        <source>Pre-token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="26"/>
        <source>A piece of text cut out by the pre-tokenizer regex before training, such as a word with its leading space. Merges never cross from one pre-token to the next.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="28"/>
        <source>Special token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="29"/>
        <source>A marker such as &lt;|endoftext|&gt; that is never split or merged and has its own id.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="30"/>
        <source>Tie rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="31"/>
        <source>What decides when several pairs are equally frequent. CS336 takes the lexicographically greatest pair (compared byte by byte); the lecture code takes the pair seen first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="33"/>
        <source>Incremental update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="34"/>
        <source>After a merge, only the words containing the pair are looked at again: their old pairs are subtracted and their new pairs added, instead of counting everything from scratch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="36"/>
        <source>Rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="37"/>
        <source>The position of a merge in the merge list. Encoding applies merges lowest rank first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="38"/>
        <source>UTF-8 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="39"/>
        <source>Text is stored as bytes (0 to 255); an English letter is one byte, a Chinese character three.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/glossary.py" line="50"/>
        <source>Glossary</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Learn</name>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="32"/>
        <source>The text becomes its UTF-8 bytes: %1 integers from 0 to 255. Each byte is a first token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="35"/>
        <source>The vocabulary starts with the 256 single bytes: ids 0 to 255.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="37"/>
        <source>Merge number %1 begins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="39"/>
        <source>Start counting pairs from zero.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="41"/>
        <source>No pair is left to merge: training stops here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="43"/>
        <source>zip gives the next neighbouring pair: (%1, %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="45"/>
        <source>Pair (%1, %2) has now been seen %3 time(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="48"/>
        <source>max picks %1, seen %2 time(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="50"/>
        <source>Tie with %1: max keeps the first one it meets, the pair seen first in the text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="54"/>
        <source>The new token gets the next free id: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="56"/>
        <source>Its bytes are its two parts joined: %1 + %2 = %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="59"/>
        <source>Every occurrence of the pair is replaced by %1: %2 replaced, the list shrinks from %3 to %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="64"/>
        <source>Special tokens are cut out first; each one becomes its own id: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="65"/>
        <location filename="../../bpe_gui/learn_text.py" line="67"/>
        <location filename="../../bpe_gui/learn_text.py" line="95"/>
        <location filename="../../bpe_gui/learn_text.py" line="100"/>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="66"/>
        <source>The text is cut at the special tokens %1 into %2 piece(s); no merge crosses them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="69"/>
        <source>Next piece: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="71"/>
        <source>The regex finds the pre-token %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="73"/>
        <source>Pre-token %1 has been seen %2 time(s); merges never cross pre-token boundaries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="76"/>
        <source>Each pair of this word counts as often as the word occurs: %1 time(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="78"/>
        <source>Pair %1 + %2 → %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="81"/>
        <source>The most frequent pair is %1 (%2 time(s)).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="84"/>
        <source>Tied with %1: the tie rule takes the lexicographically greatest pair.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="88"/>
        <source>Merge recorded; new token %1 gets id %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="91"/>
        <source>Word %1 (count %2) contains the pair: only such words change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="94"/>
        <source>Its old pairs are taken away (−%1 each): %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="97"/>
        <source>Merged: %1 → %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="99"/>
        <source>Its new pairs are added (+%1 each): %2. All other pair counts stay as they were.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="102"/>
        <source>The word is stored in its merged form.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="104"/>
        <source>%1 is a special token: it is not split or merged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="106"/>
        <source>Its id is %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="108"/>
        <source>The pre-token starts as %1 single bytes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="110"/>
        <source>Of its adjacent pairs, %1 has the lowest rank (%2): it was learned earliest, so it is merged first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="113"/>
        <source>No adjacent pair is in the merge list: %1 token(s) remain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="115"/>
        <source>Each part is looked up in the vocabulary: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="117"/>
        <source>encode_iterable fed the text in two pieces cut at character %1 gives the same ids: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="118"/>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="118"/>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_text.py" line="119"/>
        <source>It only encodes up to the last place no pre-token or special token can cross, and keeps the rest until more text arrives.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LearnView</name>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="57"/>
        <source>1. The lecture algorithm (raw bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="57"/>
        <source>2. The CS336 trainer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="58"/>
        <source>3. Encoding a text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="59"/>
        <source>Which algorithm to walk through</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="62"/>
        <source>The small text the algorithm runs on; edit it and press Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="65"/>
        <source>Special tokens, separated by spaces (never split or merged)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="69"/>
        <source>How many merges to learn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="73"/>
        <source>Text:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="76"/>
        <source>Special tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="79"/>
        <source>Merges:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="82"/>
        <source>⏮ Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="83"/>
        <source>◀ Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="84"/>
        <source>Step ▶</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="85"/>
        <location filename="../../bpe_gui/learn_view.py" line="212"/>
        <location filename="../../bpe_gui/learn_view.py" line="222"/>
        <source>Play</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="86"/>
        <source>End ⏭</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="92"/>
        <source>Run the next line (Right arrow)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="93"/>
        <source>Go back one line (Left arrow)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="106"/>
        <source>The algorithm; the highlighted line is the one just run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="108"/>
        <source>Variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="108"/>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="109"/>
        <source>A variable of the code at this line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="110"/>
        <source>Its value right after the highlighted line ran</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="191"/>
        <source>Line %1 of the code · step %2 / %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="194"/>
        <source>the text is long: later steps are not shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="217"/>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/learn_view.py" line="242"/>
        <source>Learn BPE — step by step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bpe_gui/window.py" line="91"/>
        <source>Selected merge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="92"/>
        <source>What happened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="147"/>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="148"/>
        <source>&amp;Learn BPE step by step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="149"/>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="156"/>
        <source>What is &amp;BPE?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="157"/>
        <source>&amp;Glossary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window.py" line="254"/>
        <source>The language changes when BPE Explorer is started again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Story</name>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="44"/>
        <source>No other pair was as frequent, so it was the clear winner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="45"/>
        <source>the rule takes the pair that sorts last when compared byte by byte (the lexicographically greatest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="46"/>
        <source>the rule takes the pair that appears first in the text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="47"/>
        <source>%1 other pair(s) were just as frequent (a tie); %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="53"/>
        <source>Merge %1: %2 + %3 → %4 (id %5), seen %6 time(s) in %7 distinct word(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="64"/>
        <source>&lt;b&gt;The pair.&lt;/b&gt; The two tokens %1 stood side by side %2 time(s) in the corpus, in %3 distinct word(s) (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="66"/>
        <source>pre-tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="69"/>
        <source>For example: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="70"/>
        <source>&lt;b&gt;Why it won.&lt;/b&gt; It was the most frequent %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="71"/>
        <source>byte pair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="73"/>
        <source>What is a tie rule?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="75"/>
        <source>&lt;b&gt;The new token.&lt;/b&gt; %1 joins the %2 with id &lt;b&gt;%3&lt;/b&gt;; from now on the two parts are written as one token wherever they meet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="77"/>
        <location filename="../../bpe_gui/story_view.py" line="95"/>
        <source>vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="80"/>
        <source>&lt;b&gt;What changed.&lt;/b&gt; %1 distinct word(s) changed, %2 occurrence(s) counting repeats. Only these words were touched: that is the %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="83"/>
        <source>incremental update</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="86"/>
        <source>Pair counts that went down (their neighbour was merged away): %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="90"/>
        <source>New pairs that appeared with the new token: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="92"/>
        <source>(Pair count changes are not known for this merge.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="93"/>
        <source>&lt;b&gt;Compression.&lt;/b&gt; Each merged occurrence saves one token: the corpus becomes up to %1 token(s) shorter, and the %2 grows by one.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StoryView</name>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="111"/>
        <source>What happened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="120"/>
        <source>Do a step or select a merge: this panel tells what it did, in plain words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <location filename="../../bpe_gui/story_view.py" line="127"/>
        <source>This merge was imported: only training records how and why a merge happened.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
