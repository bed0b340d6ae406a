<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>App</name>
    <message>
        <location filename="../../bpe_gui/app.py" line="64"/>
        <source>BPE Explorer: unexpected error</source>
        <translation>BPE Explorer：意外错误</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/app.py" line="66"/>
        <source>Please report this with the details below.</source>
        <translation>请附上下面的详细信息报告此问题。</translation>
    </message>
</context>
<context>
    <name>AuditDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="66"/>
        <source>Audit a merge list</source>
        <extracomment>up to this many merges to go, the jump to a divergence merges by steps (each merge keeps its pair-count changes); further, by one training run (lean: the changes are not kept)</extracomment>
        <translation>审查合并列表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="74"/>
        <source>Replays correct training on the loaded corpus, with its settings, and finds the first merge where a merge list differs, and why: a CS336 train_bpe result saved with pickle or as JSON (a list of (bytes, bytes) pairs), a merges.txt, a tokenizer.json …</source>
        <translation>用已加载语料及其设置重放正确的训练，找出合并列表第一个不同的合并及原因。可打开：用 pickle 或 JSON 保存的 CS336 train_bpe 结果（(bytes, bytes) 字节对列表）、merges.txt、tokenizer.json 等。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="82"/>
        <source>Open merge list…</source>
        <translation>打开合并列表…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="84"/>
        <source>Show in the timeline</source>
        <translation>在时间线中显示</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="97"/>
        <source>Open merge list</source>
        <translation>打开合并列表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="107"/>
        <source>Open a corpus first: the merge list is checked against it.</source>
        <translation>请先打开语料：合并列表要对照它来检查。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="115"/>
        <source>Checking {name} …</source>
        <translation>正在检查 {name} …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="131"/>
        <source>All {n} merges agree with training on this corpus.</source>
        <translation>全部 {n} 次合并都与在此语料上的训练一致。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="135"/>
        <source>Merge {k} differs (the first {ok} agree): the list has {given}, counted {gc} times here; training merges {expected}, counted {ec} times.</source>
        <translation>第 {k} 次合并不同（前 {ok} 次一致）：列表中是 {given}，在此处出现 {gc} 次；训练合并的是 {expected}，出现 {ec} 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="152"/>
        <source>first seen</source>
        <translation>最先出现</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="152"/>
        <source>lexicographically greatest</source>
        <translation>字典序最大</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="154"/>
        <source>Equal counts: the list broke the tie by the other rule ({rule}).</source>
        <translation>次数相同：列表用了另一种平局规则（{rule}）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="159"/>
        <source>Equal counts: {n} pairs tie, and the list took the smallest of them where training takes the greatest (compared as bytes). Its trainer breaks ties with min() instead of max().</source>
        <translation>次数相同：{n} 个字节对平局，列表选了其中最小的，而正确训练选最大的（按字节比较）。它的训练器用 min() 而不是 max() 打破平局。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="164"/>
        <source>Equal counts: {n} pairs tie, and the list took the greatest compared as GPT-2&apos;s printable characters (str, “Ġ” for a space), where training compares bytes (a space, 20, is smaller than any letter). Its trainer compares the pairs&apos; strings: compare their bytes.</source>
        <translation>次数相同：{n} 个字节对平局，列表选了按 GPT-2 可打印字符（str，空格写作“Ġ”）比较时最大的，而正确训练按字节比较（空格 20 比任何字母都小）。它的训练器比较的是字节对的字符串：请改为比较字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="169"/>
        <source>Equal counts, but neither tie rule picks the list&apos;s pair.</source>
        <translation>次数相同，但两种平局规则都不会选列表中的字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="172"/>
        <source>The list&apos;s pair is counted {n} times when the special tokens are left in the text: it was trained without removing them.</source>
        <translation>如果把特殊标记留在文本中，列表中的字节对出现 {n} 次：训练时没有移除特殊标记。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="177"/>
        <source>The list&apos;s pair is counted {n} times when the text is not split into pre-tokens: its trainer counted pairs across pre-token boundaries. Split the text with the pattern first and count pairs only inside each pre-token.</source>
        <translation>不把文本切成预分词时，列表中的字节对出现 {n} 次：它的训练器跨越预分词边界统计了字节对。请先用正则模式切分文本，只在每个预分词内部统计字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="183"/>
        <source>The list&apos;s pair is counted {n} times under the {pattern} pre-tokenization: it was trained with another pattern.</source>
        <translation>按 {pattern} 预分词时，列表中的字节对出现 {n} 次：训练时用了另一种预分词正则。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="189"/>
        <source>Counted the way the list&apos;s trainer merges, its pair wins ({n} times): it merged {pair} from the right in runs of three or more, such as “{example}”, giving {wrong} where {right} is correct. Apply each merge left to right.</source>
        <translation>按列表的训练器那样合并来统计，列表中的字节对胜出（{n} 次）：它在三个或更多相同词元连在一起时（例如“{example}”）从右往左合并 {pair}，得到 {wrong}，而正确的是 {right}。请从左往右执行每次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="200"/>
        <source>The list&apos;s pair does not occur in this corpus at that point.</source>
        <translation>此时列表中的字节对在这份语料中不出现。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="202"/>
        <source>The list goes on after training has no pair left to merge.</source>
        <translation>训练已没有可合并的字节对，列表却还有后续合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="204"/>
        <source>Both pairs occur: the merges come in another order.</source>
        <translation>两个字节对都出现：合并的顺序不同。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="206"/>
        <source>The correct pair is merge {n} of the list.</source>
        <translation>正确的字节对是列表中的第 {n} 次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/audit_dialog.py" line="208"/>
        <source>Training makes the list&apos;s pair at merge {n}.</source>
        <translation>训练在第 {n} 次合并时才合并列表中的字节对。</translation>
    </message>
</context>
<context>
    <name>Browser</name>
    <message>
        <location filename="../../bpe_gui/views/widgets.py" line="201"/>
        <source>Rewind to here (merge #%1 becomes the last)</source>
        <translation>回退到这里（第 %1 次合并成为最后一次）</translation>
    </message>
</context>
<context>
    <name>BrowserView</name>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="146"/>
        <location filename="../../bpe_gui/views/browser_models.py" line="210"/>
        <source>bytes: {0}</source>
        <translation>字节：{0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="184"/>
        <source>added</source>
        <translation>添加的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="186"/>
        <source>special</source>
        <translation>特殊标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="190"/>
        <location filename="../../bpe_gui/views/browser_models.py" line="231"/>
        <source>merge #{0}</source>
        <translation>第 {0} 次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="192"/>
        <location filename="../../bpe_gui/views/browser_view.py" line="357"/>
        <source>byte</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="199"/>
        <source>Byte-fallback piece: the byte {0} of a character that is not in the vocab</source>
        <translation>字节回退片段：词表中没有的字符的字节 {0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="204"/>
        <source>Added token, not special (the file marks it &quot;special&quot;: false): found whole in text and never merged, like a special token, but kept when special tokens are skipped</source>
        <translation>添加的词元，不是特殊标记（文件中标为 &quot;special&quot;: false）：像特殊标记一样在文本中整体匹配、从不参与合并，但跳过特殊标记时会保留它</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="225"/>
        <source>byte fallback</source>
        <translation>字节回退</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="227"/>
        <source>user-defined</source>
        <translation>用户定义</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="229"/>
        <source>unused</source>
        <translation>未使用</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_models.py" line="233"/>
        <source>character</source>
        <translation>字符</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="79"/>
        <source>Search tokens: text (&apos; the&apos;), hex (e4 b8) or #id …</source>
        <translation>搜索词元：文本（&apos; the&apos;）、十六进制（e4 b8）或 #ID …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="89"/>
        <source>Merges</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="90"/>
        <source>Vocab</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="92"/>
        <source>Longest</source>
        <translation>最长词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="93"/>
        <source>Never used</source>
        <translation>从未使用</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="95"/>
        <source>Merge tree</source>
        <translation>合并树</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="99"/>
        <source>Click a part to select the merge that made it</source>
        <translation>点击其中一部分，选中生成它的那次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="8"/>
        <location filename="../../bpe_gui/views/browser_view.py" line="95"/>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="117"/>
        <source>&lt;b&gt;Merges &amp;amp; vocab&lt;/b&gt;</source>
        <translation>&lt;b&gt;合并与词表&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="201"/>
        <source>Select a merge or a token to see how it was built</source>
        <translation>选择一次合并或一个词元，查看它是如何构成的</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="227"/>
        <source>No matches for “%1” (searched the token text, its readable form and its hex bytes).</source>
        <translation>没有与“%1”匹配的结果（已搜索词元文本、可读形式和十六进制字节）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="232"/>
        <source>No merge made a token matching “%1”; see the Vocab tab.</source>
        <translation>没有哪次合并生成与“%1”匹配的词元；请看“词表”标签页。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/browser_view.py" line="242"/>
        <source>No token has id {0} (this vocab has ids 0–{1}).</source>
        <translation>没有 ID 为 {0} 的词元（此词表的 ID 为 0–{1}）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="10"/>
        <source>Left</source>
        <translation>左</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="11"/>
        <source>Right</source>
        <translation>右</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="12"/>
        <location filename="../../bpe_gui/text/columns.py" line="27"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="13"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="16"/>
        <source>Merge number: #1 is the first merge; encoding applies merges in this order</source>
        <translation>合并编号（从 1 数起）：#1 是第一次合并；编码时按此顺序应用合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="19"/>
        <source>The id of the token this merge made</source>
        <translation>这次合并产生的词元的 ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="20"/>
        <source>The left token of the merged pair</source>
        <translation>被合并字节对的左词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="21"/>
        <source>The right token of the merged pair</source>
        <translation>被合并字节对的右词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="22"/>
        <source>The new token: left and right joined</source>
        <translation>新词元：左右两部分连在一起</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="23"/>
        <source>How often the pair occurred when it was merged</source>
        <translation>合并时该字节对出现的次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="28"/>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="29"/>
        <source>Len</source>
        <translation>长度</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="30"/>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="31"/>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="34"/>
        <source>The token&apos;s id: the number the model sees</source>
        <translation>词元的 ID：模型看到的数字</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="35"/>
        <source>The token as text (visible spaces; \xNN for bytes that are not whole UTF-8 characters)</source>
        <translation>词元的文本形式（空格可见；不构成完整 UTF-8 字符的字节显示为 \xNN）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="39"/>
        <source>The token&apos;s bytes in hexadecimal</source>
        <translation>词元的字节（十六进制）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="40"/>
        <source>Length in bytes</source>
        <translation>字节长度</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="41"/>
        <source>Where the token comes from: one of the 256 bytes, a special token, or the merge that made it</source>
        <translation>词元的来源：256 个字节之一、特殊标记，或产生它的那次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/columns.py" line="45"/>
        <source>A SentencePiece model&apos;s score of the piece: of two pairs, the one whose joined piece scores higher is merged first</source>
        <translation>SentencePiece 模型给该片段的分数：两个相邻对中，合并后片段分数更高的先合并</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="58"/>
        <source>Vocabulary overlap</source>
        <translation>词表重叠</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="69"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="71"/>
        <source>Add text file…</source>
        <translation>添加文本文件…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="83"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="83"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="83"/>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="92"/>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="83"/>
        <source>Id there</source>
        <translation>对方的 ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="92"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="92"/>
        <source>Tokens (this app)</source>
        <translation>词元数（本应用）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="92"/>
        <source>Tokens (other)</source>
        <translation>词元数（对方）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="114"/>
        <source>Load a tokenizer to compare with first: File → Compare with tokenizer…</source>
        <translation>请先加载要比较的分词器：文件 → 与分词器比较…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="117"/>
        <source>This app&apos;s tokenizer beside {name}.</source>
        <translation>本应用的分词器与 {name} 对照。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="128"/>
        <source>The tokenizers changed since the last comparison: press Compare again.</source>
        <translation>上次比较之后分词器已改变：请再按一次“比较”。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="142"/>
        <source>Only in this app ({n})</source>
        <translation>仅本应用有（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="143"/>
        <source>Only in the other ({n})</source>
        <translation>仅对方有（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="144"/>
        <source>Shared ({n})</source>
        <translation>共有（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="145"/>
        <source>Texts ({n})</source>
        <translation>文本（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="151"/>
        <source>Add text files</source>
        <translation>添加文本文件</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="166"/>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="182"/>
        <source>{shared} tokens shared ({same} with the same id), {only_a} only in this app&apos;s tokenizer ({vocab_a} tokens), {only_b} only in the other ({vocab_b} tokens).</source>
        <translation>共有 {shared} 个词元（其中 {same} 个 ID 相同），{only_a} 个仅本应用的分词器有（共 {vocab_a} 个词元），{only_b} 个仅对方有（共 {vocab_b} 个词元）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="193"/>
        <source>The merge lists are equal.</source>
        <translation>两个合并列表相同。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="195"/>
        <source>The merge lists part at merge {n}: here {a}, there {b}.</source>
        <translation>两个合并列表从第 {n} 次合并开始不同：这里是 {a}，对方是 {b}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="199"/>
        <source>Special tokens are compared apart, by their text: {shared} shared, {only_a} only here, {only_b} only there.</source>
        <translation>特殊标记另行比较（按文本）：共有 {shared} 个，仅在本应用中 {only_a} 个，仅在另一个中 {only_b} 个。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="208"/>
        <source>Added tokens that are not special, by their text: {shared} shared, {only_a} only here, {only_b} only there.</source>
        <translation>不是特殊标记的添加的词元另行比较（按文本）：共有 {shared} 个，仅在本应用中 {only_a} 个，仅在另一个中 {only_b} 个。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="217"/>
        <source>shared</source>
        <translation>共有</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="218"/>
        <source>only here</source>
        <translation>仅在本应用中</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="219"/>
        <source>only there</source>
        <translation>仅在另一个中</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="221"/>
        <source>added, shared</source>
        <translation>添加的词元，共有</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="222"/>
        <source>added, only here</source>
        <translation>添加的词元，仅在本应用中</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="223"/>
        <source>added, only there</source>
        <translation>添加的词元，仅在另一个中</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/overlap_dialog.py" line="236"/>
        <source>bytes: {0}</source>
        <translation>字节：{0}</translation>
    </message>
</context>
<context>
    <name>Controller</name>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="42"/>
        <source>A task is running; wait for it or press Cancel.</source>
        <translation>有任务正在运行；请等待或按“取消”。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="52"/>
        <source>Cannot train an imported tokenizer as it is: File → Continue training from this tokenizer… learns new merges on top of it on a corpus you pick (or open a corpus to train from scratch).</source>
        <translation>不能直接训练导入的分词器：文件 → 从这个分词器继续训练… 会在你选择的语料上、在它之上学习新的合并（或打开一份语料从头训练）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="62"/>
        <source>an imported tokenizer cannot be trained further</source>
        <translation>导入的分词器不能继续训练</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="100"/>
        <source>Merging …</source>
        <translation>正在合并 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="102"/>
        <source>Merging {0} …</source>
        <translation>正在合并 {0} 次 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="124"/>
        <source>Stopped after %1 of %n merge(s); vocab size %2.</source>
        <translation>在 %n 次合并中完成了 %1 次后停止；词表大小 %2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="129"/>
        <source>No pair left to merge: the vocab stays at %1 tokens.</source>
        <translation>没有可合并的字节对了：词表保持 %1 个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="134"/>
        <source>Did %1 of %n merge(s): no pair is left to merge (vocab size %2).</source>
        <translation>完成了 %n 次合并中的 %1 次：没有可合并的字节对了（词表大小 %2）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="139"/>
        <source>Merge #%1: %2</source>
        <translation>第 %1 次合并：%2</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="144"/>
        <source>Did %n merge(s); vocab size %1.</source>
        <translation>完成 %n 次合并；词表大小 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="166"/>
        <source>Nothing to undo: the base tokenizer&apos;s merges stay (Reset goes back to it).</source>
        <translation>没有可撤销的合并：基础分词器的合并会保留（“重置”回到它）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="181"/>
        <source>Undid merge #%1 (%2); vocab size %3.</source>
        <translation>已撤销第 %1 次合并(%2)；词表大小 %3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="277"/>
        <source>The session file {0} keeps all its {1} merges; open it again to replay them.</source>
        <translation>会话文件 {0} 仍保留全部 {1} 次合并；再次打开它即可重放。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="155"/>
        <source>A merge is running; undo it when it is done.</source>
        <translation>合并正在进行；完成后再撤销。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="64"/>
        <source>no corpus is open</source>
        <translation>尚未打开语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="67"/>
        <source>Cannot train: {0}. Open a corpus (File → Open corpus…) first.</source>
        <translation>无法训练：{0}。请先打开语料（文件 → 打开语料…）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="170"/>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="201"/>
        <source>Cannot train to {0} tokens: an extension keeps all {1} tokens of {2}. Choose a vocab size above {1}.</source>
        <translation>不能训练到 {0} 个词元：扩展会保留 {2} 的全部 {1} 个词元。请选择大于 {1} 的词表大小。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="230"/>
        <source>Training to {0} …</source>
        <translation>正在训练到 {0} …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="239"/>
        <source>Cancelling …</source>
        <translation>正在取消 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/training.py" line="248"/>
        <source>the training engine stopped</source>
        <translation>训练引擎已停止</translation>
    </message>
</context>
<context>
    <name>ControllerBase</name>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="168"/>
        <source>The training engine stopped; the merges so far stay visible. Open the corpus again to continue.</source>
        <translation>训练引擎已停止；已完成的合并仍然显示。请重新打开语料以继续。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="296"/>
        <source>A training run is in progress; cancel it before opening another corpus.</source>
        <translation>训练正在进行；请先取消，再打开其他语料。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="303"/>
        <source>Reading {0} …</source>
        <translation>正在读取 {0} …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="326"/>
        <source>Wait for the current task to finish (or cancel it) before changing settings.</source>
        <translation>请等待当前任务完成（或取消它）后再更改设置。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="334"/>
        <source>Settings saved: they apply to the next corpus you open (an extension uses its base tokenizer&apos;s pattern and special tokens).</source>
        <translation>设置已保存：它们用于你下一次打开的语料（扩展使用其基础分词器的预分词模式和特殊标记）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="341"/>
        <source>Settings saved: they apply to the next corpus you open (an imported tokenizer is shown as it was trained).</source>
        <translation>设置已保存：将用于下一个打开的语料（导入的分词器按其训练时的设置显示）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="464"/>
        <source>the training engine stopped</source>
        <translation>训练引擎已停止</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="467"/>
        <source>Could not load %1; nothing changed.</source>
        <translation>无法加载 %1；没有任何改动。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="471"/>
        <source>Loading cancelled; nothing changed.</source>
        <translation>加载已取消；没有任何改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/base.py" line="485"/>
        <source>Loaded {0}: {1} bytes, {2} pre-tokens ({3} distinct) in {4} s.</source>
        <translation>已加载 {0}：{1} 字节，{2} 个预分词（{3} 个不同），用时 {4} 秒。</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="33"/>
        <source>starts with a UTF-8 byte-order mark (kept as the bytes EF BB BF)</source>
        <translation>以 UTF-8 字节顺序标记（BOM）开头（作为字节 EF BB BF 原样保留）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="24"/>
        <source>%n invalid UTF-8 byte(s) kept byte-exactly</source>
        <translation>%n 个无效的 UTF-8 字节已逐字节原样保留</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="43"/>
        <source>GPT-2 files: vocab {0} + merges {1}</source>
        <translation>GPT-2 文件：词表 {0} + 合并规则 {1}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="52"/>
        <source>the file holds merges but no vocab: ids are derived (0-255 the bytes, then the special tokens, then one per merge in order); to keep a model&apos;s own ids, put its vocab.json beside it</source>
        <translation>文件只有合并列表，没有词表：ID 是推算出来的（0-255 为字节，然后是特殊标记，再按顺序每个合并一个 ID）；要保留模型自己的 ID，请把它的 vocab.json 放在旁边</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="60"/>
        <source>merges from {0}, ids from the vocab beside it ({1})</source>
        <translation>合并来自 {0}，ID 来自旁边的词表（{1}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="66"/>
        <source>merges and vocab from {0}</source>
        <translation>合并和词表都来自 {0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="70"/>
        <source>the file stores no pattern: GPT-2&apos;s pattern is assumed</source>
        <translation>文件没有保存预分词模式：按 GPT-2 的模式处理</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="76"/>
        <source>GPT-2 files store no pattern: GPT-2&apos;s pattern is assumed</source>
        <translation>GPT-2 文件不保存预分词正则：按 GPT-2 的正则处理</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="82"/>
        <source>special tokens were taken as the tokens no merge makes (there are none)</source>
        <translation>特殊标记取为没有任何合并规则生成的词元（没有这样的词元）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="88"/>
        <source>special tokens were taken as the tokens no merge makes ({0})</source>
        <translation>特殊标记取为没有任何合并规则生成的词元（{0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="97"/>
        <source>recognised as {0} ({1}); its pattern and special-token ids are applied, except the {2} you gave</source>
        <translation>识别为 {0}（{1}）；已采用它的预分词正则和特殊标记的 ID，但你给出的{2}除外</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="104"/>
        <source>recognised as {0} ({1}); its pattern and special-token ids are applied</source>
        <translation>识别为 {0}（{1}）；已采用它的预分词正则和特殊标记的 ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="112"/>
        <source>a tiktoken file stores no pattern and no special tokens, and this one is not a known encoding: GPT-2&apos;s pattern is assumed and no special tokens are known (give the pattern and the special tokens as TOKEN=ID)</source>
        <translation>tiktoken 文件不保存预分词正则和特殊标记，而这个文件不是已知的编码方案：按 GPT-2 的正则处理，且没有已知的特殊标记（请给出正则，并以 TOKEN=ID 的形式给出特殊标记）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="124"/>
        <source>a tiktoken file stores no pattern, and this one is not a known encoding: GPT-2&apos;s pattern is assumed (give the pattern if it is another); the special tokens are the ones given ({0})</source>
        <translation>tiktoken 文件不保存预分词正则，而这个文件不是已知的编码方案：按 GPT-2 的正则处理（若是别的正则，请给出）；特殊标记按给出的处理（{0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="134"/>
        <source>pattern and special tokens read from {0} beside it (the same tokens at the same ids)</source>
        <translation>预分词正则和特殊标记取自同一文件夹中的 {0}（两者的词元和 ID 完全相同）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="143"/>
        <source>the file gives rank {0} an empty token (a placeholder, as in Whisper&apos;s multilingual.tiktoken): left out; no text encodes to it</source>
        <translation>文件把排位 {0} 给了一个空词元（占位符，Whisper 的 multilingual.tiktoken 就是这样）：已略去；没有文本会编码成它</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="154"/>
        <source>the file gives ranks {0} an empty token (a placeholder, as in Whisper&apos;s multilingual.tiktoken): left out; no text encodes to it</source>
        <translation>文件把排位 {0} 给了空词元（占位符，Whisper 的 multilingual.tiktoken 就是这样）：已略去；没有文本会编码成它</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="165"/>
        <source>Mistral tekken file (version {0}): {1} special ids first, then {2} ranks; special tokens are not looked for in text (as mistral-common&apos;s encode)</source>
        <translation>Mistral tekken 文件（版本 {0}）：先是 {1} 个特殊 ID，然后是 {2} 个排位；不在文本中查找特殊标记（与 mistral-common 的 encode 相同）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="177"/>
        <source>SentencePiece BPE model: {0} pieces ({1} byte pieces, {2} user-defined); ids are sentencepiece&apos;s encode(text) without &lt;s&gt;: control pieces (&lt;s&gt;, &lt;/s&gt; …) are not looked for in text</source>
        <translation>SentencePiece BPE 模型：{0} 个片段（{1} 个字节片段，{2} 个用户定义片段）；id 与 sentencepiece 的 encode(text) 相同（不加 &lt;s&gt;）：文本中不查找控制片段（&lt;s&gt;、&lt;/s&gt; …）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="185"/>
        <source>the model has no byte fallback: a character outside the vocab becomes &lt;unk&gt;</source>
        <translation>该模型没有字节回退：词表外的字符变成 &lt;unk&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="191"/>
        <source>text is normalized by the model&apos;s rule {0}, as sentencepiece does</source>
        <translation>文本按模型的规则 {0} 规范化，与 sentencepiece 相同</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="197"/>
        <source>char-level BPE tokenizer.json (SentencePiece style): {0} tokens</source>
        <translation>字符级 BPE tokenizer.json（SentencePiece 风格）：{0} 个标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="206"/>
        <source>the file sets truncation (to {0} tokens); BPE Explorer shows every token, does not apply it and leaves it out of its tokenizer.json exports</source>
        <translation>文件设置了截断（到 {0} 个词元）；BPE Explorer 显示全部词元，不做截断，导出的 tokenizer.json 也不带这一设置</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="217"/>
        <source>the file sets padding ({0}); BPE Explorer does not apply it and leaves it out of its tokenizer.json exports</source>
        <translation>文件设置了填充（{0}）；BPE Explorer 不做填充，导出的 tokenizer.json 也不带这一设置</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="228"/>
        <source>the post-processor adds {0} the text (encode(text, add_special_tokens=False) leaves them out)</source>
        <translation>后处理器会在文本{0}添加词元（encode(text, add_special_tokens=False) 不添加它们）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="241"/>
        <source>the SentencePiece-style char-level BPE model (pieces, scores, byte fallback: these formats hold byte-level BPE)</source>
        <translation>SentencePiece 风格的字符级 BPE 模型（片段、分数、字节回退：这些格式只能保存字节级 BPE）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="249"/>
        <source>the pattern ({0}; readers assume GPT-2&apos;s)</source>
        <translation>预分词模式（{0}；读取方会假定是 GPT-2 的模式）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="258"/>
        <source>the text the pattern does not match ({0}: tiktoken drops it, where BPE Explorer and Hugging Face tokenizers encode it)</source>
        <translation>预分词模式匹配不到的文本（{0}：tiktoken 会把它丢掉，而 BPE Explorer 和 Hugging Face tokenizers 会把它编码）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="266"/>
        <source>a pattern that can match the empty string (tiktoken fails on it)</source>
        <translation>能匹配空字符串的预分词模式（tiktoken 遇到它会出错）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="275"/>
        <source>special tokens of which one begins another ({0} begins {1}: tiktoken may take the shorter, where BPE Explorer and Hugging Face tokenizers take the longest)</source>
        <translation>一个以另一个开头的特殊标记（{0} 是 {1} 的开头：tiktoken 可能取较短的那个，而 BPE Explorer 和 Hugging Face tokenizers 取最长的）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="286"/>
        <source>the order of the merges (tiktoken merges by token rank and gives other ids: {0} → {1}, where BPE Explorer and HF tokenizers give {2})</source>
        <translation>合并的顺序（tiktoken 按标记的排名合并，得到不同的 ID：{0} → {1}，而 BPE Explorer 和 Hugging Face tokenizers 得到 {2}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="294"/>
        <source>the normalizer ({0})</source>
        <translation>规范化器（{0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="298"/>
        <source>the pre-tokenizer ({0}; only one regex is kept, as the pattern)</source>
        <translation>预分词器（{0}；只保留一个正则作为预分词正则）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="304"/>
        <source>the post-processor (it adds 1 token: id {0})</source>
        <translation>后处理器（它添加 1 个词元：ID {0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="310"/>
        <source>the post-processor (it adds {0} tokens: ids {1})</source>
        <translation>后处理器（它添加 {0} 个词元：ID {1}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="316"/>
        <source>ignore_merges=false ({0} token(s) of the vocab are made by no merge: the original builds a pre-token equal to one of them by the merges, these formats take the whole token)</source>
        <translation>ignore_merges=false（词表中有 {0} 个词元不由任何合并规则生成：原分词器对等于其中某个词元的预分词结果仍按合并规则逐步构建，这些格式则直接取整个词元）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="327"/>
        <source>{0} special token(s) whose bytes are not UTF-8 ({1}; only vocab.json + merges.txt and bpe.json hold them as special tokens)</source>
        <translation>{0} 个字节不是 UTF-8 的特殊标记（{1}；只有 vocab.json + merges.txt 和 bpe.json 能把它们存为特殊标记）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="335"/>
        <source>the lstrip/rstrip/single_word options of {0} added token(s) ({1})</source>
        <translation>{0} 个附加词元的 lstrip/rstrip/single_word 选项（{1}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="349"/>
        <source>{0} before</source>
        <translation>之前（{0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="351"/>
        <source>{0} after</source>
        <translation>之后（{0}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="352"/>
        <source> and </source>
        <translation>和</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/core.py" line="378"/>
        <source>.</source>
        <translation>。</translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="26"/>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="30"/>
        <source>&lt;i&gt;no corpus&lt;/i&gt;</source>
        <translation>&lt;i&gt;无语料&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="31"/>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="33"/>
        <source>Recent</source>
        <translation>最近</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="46"/>
        <source>Size of the corpus file</source>
        <translation>语料文件的大小</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="48"/>
        <source>How many pieces the pre-tokenizer pattern cut the text into (words, numbers, punctuation runs …). Pairs are counted and merged inside them only.</source>
        <translation>预分词正则把文本切成了多少段（单词、数字、标点串 …）。字节对只在这些片段内部统计和合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="52"/>
        <source>How many different pre-tokens there are: the trainer works on these, each with its count</source>
        <translation>有多少种不同的预分词：训练器处理的就是它们，每个带有出现次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="55"/>
        <source>Bytes that are not valid UTF-8. They are kept exactly and trained on like any other byte.</source>
        <translation>不是合法 UTF-8 的字节。它们被原样保留，并像其他字节一样参与训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="58"/>
        <source>How often the special tokens occur in the corpus; the text is split at them and they are never merged</source>
        <translation>特殊标记在语料中出现的次数；文本在它们处切开，它们永远不会被合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="90"/>
        <source>Continue training from this tokenizer…</source>
        <translation>从这个分词器继续训练…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="93"/>
        <source>Pick a corpus and learn new merges on top of this tokenizer, step by step: its tokens and ids stay, new ones follow its last id</source>
        <translation>选择一份语料，在这个分词器之上逐步学习新的合并：它的词元和 ID 保持不变，新词元的 ID 接在它最后一个 ID 之后</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="114"/>
        <source>&lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;new merges on top of &lt;b&gt;{1}&lt;/b&gt;&lt;/span&gt;</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;在 &lt;b&gt;{1}&lt;/b&gt; 之上的新合并&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="120"/>
        <source>Size of the corpus file: %1 bytes</source>
        <translation>语料文件大小：%1 字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="64"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="65"/>
        <source>Pre-tokens</source>
        <translation>预分词数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="66"/>
        <source>Distinct</source>
        <translation>不同预分词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="67"/>
        <source>Invalid bytes</source>
        <translation>无效字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="68"/>
        <source>Specials found</source>
        <translation>特殊标记出现</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="130"/>
        <source>the file is empty: training will make no merges</source>
        <translation>文件为空：训练不会产生任何合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/corpus_panel.py" line="141"/>
        <source>&lt;i&gt;imported tokenizer&lt;/i&gt; &lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;open a corpus to train&lt;/span&gt;</source>
        <translation>&lt;i&gt;导入的分词器&lt;/i&gt; &lt;b&gt;{0}&lt;/b&gt;&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;打开语料即可训练&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>DetailsView</name>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="40"/>
        <source>&lt;b&gt;Selected merge&lt;/b&gt;</source>
        <translation>&lt;b&gt;选中的合并&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="64"/>
        <source>&lt;p style=&apos;color:#667&apos;&gt;Click a point of the timeline or a row of the merges list to see what that merge did.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#667&apos;&gt;点击时间线上的一个点或合并列表中的一行，查看那次合并做了什么。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="90"/>
        <source>&lt;p&gt;merge &lt;b&gt;#{0}&lt;/b&gt; · token id &lt;b&gt;{1}&lt;/b&gt; · {2} bytes &lt;span style=&apos;color:#667&apos;&gt;({3})&lt;/span&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;合并 &lt;b&gt;#{0}&lt;/b&gt; · 词元 ID &lt;b&gt;{1}&lt;/b&gt; · {2} 字节 &lt;span style=&apos;color:#667&apos;&gt;（{3}）&lt;/span&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="95"/>
        <source>&lt;p&gt;count when merged: &lt;b&gt;{0}&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;合并时的次数：&lt;b&gt;{0}&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="101"/>
        <source>&lt;p style=&apos;color:#667&apos;&gt;This file records no counts, so why this pair was merged at this point is not known; train on a corpus to see the counts.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#667&apos;&gt;这个文件没有记录次数，所以不知道为什么在这一步合并这个字节对；在语料上训练即可看到次数。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="106"/>
        <source>&lt;p&gt;why: {0}&lt;/p&gt;</source>
        <translation>&lt;p&gt;原因：{0}&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="109"/>
        <source> and {0} more</source>
        <translation> 等另外 {0} 个</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="110"/>
        <source>&lt;p style=&apos;color:#556&apos;&gt;tied with: {0}{1}&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#556&apos;&gt;与之并列：{0}{1}&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="113"/>
        <source>distinct word</source>
        <translation>个不同的单词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="113"/>
        <source>distinct words</source>
        <translation>个不同的单词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="114"/>
        <source>time</source>
        <translation>次</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="114"/>
        <source>times</source>
        <translation>次</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="115"/>
        <source>changed &lt;b&gt;{0}&lt;/b&gt; {1}, which occur &lt;b&gt;{2}&lt;/b&gt; {3} in the corpus</source>
        <translation>改变了 &lt;b&gt;{0}&lt;/b&gt; {1}，它们在语料中共出现 &lt;b&gt;{2}&lt;/b&gt; {3}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="119"/>
        <source>; some hold the pair more than once: &lt;b&gt;{0}&lt;/b&gt; places in all</source>
        <translation>；有的单词含有这个字节对不止一处：共 &lt;b&gt;{0}&lt;/b&gt; 处</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="125"/>
        <source>&lt;p style=&apos;color:#667&apos;&gt;&lt;i&gt;Examples appear when the run is over.&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#667&apos;&gt;&lt;i&gt;训练结束后显示示例。&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="133"/>
        <source>&lt;p&gt;&lt;b&gt;Examples&lt;/b&gt; (before → tokens now)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;示例&lt;/b&gt;（之前 → 现在的词元）&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="148"/>
        <source>&lt;p style=&apos;color:#667&apos;&gt;&lt;i&gt;Looking for it in the corpus …&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#667&apos;&gt;&lt;i&gt;正在语料中查找 …&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="149"/>
        <source>&lt;p&gt;&lt;a href=&apos;snippets&apos;&gt;Show where this token occurs in the corpus&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;a href=&apos;snippets&apos;&gt;显示这个词元在语料中出现的位置&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="189"/>
        <source>&lt;p style=&apos;color:#667&apos;&gt;The tokenizer does not make this token anywhere in the corpus.&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#667&apos;&gt;分词器在整份语料中都没有产生这个词元。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="195"/>
        <source>byte {0}</source>
        <translation>第 {0} 字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/details_view.py" line="202"/>
        <source>&lt;p&gt;&lt;b&gt;Where it occurs&lt;/b&gt; (the first places in the corpus)&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;出现位置&lt;/b&gt;（语料中最先出现的几处）&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>Errors</name>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="19"/>
        <source>%(name)s looks like %(kind)s text. Convert it to UTF-8 first (for example with iconv) and open it again.</source>
        <translation>%(name)s 看起来是 %(kind)s 文本。请先转换为 UTF-8（例如用 iconv），再重新打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="34"/>
        <source>%(name)s is a %(kind)s-compressed file. Decompress it first (for example: %(command)s %(name)s) and open the decompressed file.</source>
        <translation>%(name)s 是 %(kind)s 压缩文件。请先解压（例如：%(command)s %(name)s），再打开解压出的文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="39"/>
        <source>%(name)s is a NumPy array (.npy, such as token ids), not text. Choose a UTF-8 text file.</source>
        <translation>%(name)s 是 NumPy 数组文件（.npy，例如词元 ID），不是文本。请选择 UTF-8 文本文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="43"/>
        <source>The encoding %(name)s is not available offline: tiktoken&apos;s cache has no copy of it. Download %(url)s and open that file instead.</source>
        <translation>编码 %(name)s 无法离线使用：tiktoken 的缓存里没有它的副本。请下载 %(url)s，再打开那个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="48"/>
        <source>%(name)s is a %(kind)s-compressed file. Decompress it first (for example: %(command)s %(name)s) and open the tokenizer file inside.</source>
        <translation>%(name)s 是 %(kind)s 压缩文件。请先解压（例如：%(command)s %(name)s），再打开其中的分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="53"/>
        <source>The folder %(folder)s already holds %(files)s, which BPE Explorer did not write there (another tokenizer&apos;s files, or changed since). Choose another folder, or replace them.</source>
        <translation>文件夹 %(folder)s 中已有 %(files)s，它们不是 BPE Explorer 写入的（属于另一个分词器，或之后被修改过）。请选择其他文件夹，或替换它们。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="58"/>
        <source>%(name)s is plain text, not a tokenizer file. To train on it, open it as a corpus; to open a tokenizer, choose its vocab.json, merges.txt, tokenizer.json, .tiktoken or bpe.json.</source>
        <translation>%(name)s 是纯文本，不是分词器文件。要在它上面训练，请把它作为语料打开；要打开分词器，请选择它的 vocab.json、merges.txt、tokenizer.json、.tiktoken 或 bpe.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="63"/>
        <source>%(name)s is not a tokenizer file BPE Explorer reads. Choose a vocab.json + merges.txt, tokenizer.json, .tiktoken, SentencePiece tokenizer.model or bpe.json file.</source>
        <translation>%(name)s 不是 BPE Explorer 能读取的分词器文件。请选择 vocab.json + merges.txt、tokenizer.json、.tiktoken、SentencePiece 的 tokenizer.model 或 bpe.json 文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="94"/>
        <source>%(name)s is empty: it is not a tokenizer file.</source>
        <translation>%(name)s 是空文件，不是分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="95"/>
        <source>%(name)s looks like a GPT-2 vocab.json, but its merges file is not beside it (looked for %(tried)s or a single *merges*.txt). Choose both files: vocab.json and merges.txt.</source>
        <translation>%(name)s 看起来是 GPT-2 的 vocab.json，但旁边找不到它的合并文件（没有 %(tried)s，也没有唯一的 *merges*.txt 文件）。请同时选择 vocab.json 和 merges.txt 两个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="100"/>
        <source>The vocab that goes with %(name)s is not beside it (looked for %(tried)s or a single *.json). Choose both files: vocab.json and merges.txt.</source>
        <translation>%(name)s 旁边找不到与它配套的词表（没有 %(tried)s，也没有唯一的 *.json 文件）。请同时选择 vocab.json 和 merges.txt 两个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="105"/>
        <source>%(name)s is a NumPy array (.npy, such as token ids), not a tokenizer file.</source>
        <translation>%(name)s 是 NumPy 数组文件（.npy，例如词元 ID），不是分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="24"/>
        <source>%(name)s looks like a binary file, not text (%(nul)s NUL bytes in its first %(size)s bytes). Choose a UTF-8 text file.</source>
        <translation>%(name)s 看起来是二进制文件，不是文本（前 %(size)s 个字节中有 %(nul)s 个 NUL 字节）。请选择 UTF-8 文本文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="29"/>
        <source>%(name)s holds only NUL bytes (its first %(size)s bytes are all 0), not text. Choose a UTF-8 text file.</source>
        <translation>%(name)s 里只有 NUL 字节（前 %(size)s 个字节全是 0），不是文本。请选择 UTF-8 文本文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="108"/>
        <source>%(name)s does not look like UTF-8 text (%(invalid)s of its first %(size)s bytes are not valid UTF-8). Choose a UTF-8 text file.</source>
        <translation>%(name)s 看起来不是 UTF-8 文本（前 %(size)s 个字节中有 %(invalid)s 个不是有效的 UTF-8）。请选择 UTF-8 文本文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="113"/>
        <source>The corpus file %(path)s does not exist. Check the path.</source>
        <translation>语料文件 %(path)s 不存在。请检查路径。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="114"/>
        <source>%(path)s is a folder. Choose a text file.</source>
        <translation>%(path)s 是一个文件夹。请选择文本文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="115"/>
        <source>Cannot read the corpus file %(path)s: %(reason)s</source>
        <translation>无法读取语料文件 %(path)s：%(reason)s</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="116"/>
        <source>The pattern must be gpt2, gpt4, none or a non-empty regular expression.</source>
        <translation>模式必须是 gpt2、gpt4、none 或一个非空的正则表达式。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="119"/>
        <source>The pre-tokenizer regex %(pattern)s is not valid (%(detail)s). Fix it or choose gpt2, gpt4 or none.</source>
        <translation>预分词正则表达式 %(pattern)s 无效（%(detail)s）。请修正，或选择 gpt2、gpt4 或 none。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="124"/>
        <source>The pre-tokenizer regex %(pattern)s only matches the empty string.</source>
        <translation>预分词正则表达式 %(pattern)s 只能匹配空字符串。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="134"/>
        <source>%(name)s changed while it was read (%(before)s bytes when reading started, %(now)s bytes now). Open it again once nothing writes to it, or copy it first.</source>
        <translation>%(name)s 在读取过程中发生了变化（开始读取时为 %(before)s 字节，现在为 %(now)s 字节）。请在没有程序写入它时重新打开，或先复制一份。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="139"/>
        <source>The special token %(token)s contains a lone surrogate, which is not valid Unicode. Fix the token.</source>
        <translation>特殊标记 %(token)s 含有孤立的代理码位，不是有效的 Unicode。请修改该标记。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="143"/>
        <source>A special token is empty. Remove it from the list.</source>
        <translation>有一个特殊标记是空的。请把它从列表中删除。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="144"/>
        <source>The special token %(token)s is listed twice. List each special token once.</source>
        <translation>特殊标记 %(token)s 出现了两次。每个特殊标记只需列出一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="147"/>
        <source>%(name)s is a %(kind)s tokenizer. BPE Explorer opens byte-level BPE tokenizers (GPT-2, GPT-4/tiktoken, Llama 3, Qwen, DeepSeek, OLMo, Mistral tekken …) and SentencePiece BPE (Llama 2, Mistral 7B, Gemma …).</source>
        <translation>%(name)s 是 %(kind)s 分词器。BPE Explorer 打开的是字节级 BPE 分词器（GPT-2、GPT-4/tiktoken、Llama 3、Qwen、DeepSeek、OLMo、Mistral tekken …）和 SentencePiece BPE（Llama 2、Mistral 7B、Gemma …）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="153"/>
        <source>%(name)s is a HuggingFace settings file (the model&apos;s or tokenizer&apos;s configuration), not the tokenizer itself. Open the tokenizer.json beside it: %(tokenizer)s</source>
        <translation>%(name)s 是 HuggingFace 的设置文件（模型或分词器的配置），不是分词器本身。请打开它旁边的 tokenizer.json：%(tokenizer)s</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="158"/>
        <source>%(name)s is a HuggingFace settings file (the model&apos;s or tokenizer&apos;s configuration), not the tokenizer itself. Open the model&apos;s tokenizer.json (or its vocab.json and merges.txt, or tokenizer.model) instead.</source>
        <translation>%(name)s 是 HuggingFace 的设置文件（模型或分词器的配置），不是分词器本身。请改为打开该模型的 tokenizer.json（或其 vocab.json 与 merges.txt，或 tokenizer.model）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="164"/>
        <source>%(file)s: the byte 0x%(byte)02x at offset %(offset)s is not valid UTF-8, and %(tokenizer)s has no token for it (its vocab leaves out the bytes that never occur in UTF-8, as GPT-NeoX and OLMo 1 do). Remove or replace such bytes first (for example with iconv -c), or use a tokenizer that has all 256 bytes.</source>
        <translation>%(file)s：偏移 %(offset)s 处的字节 0x%(byte)02x 不是有效的 UTF-8，而 %(tokenizer)s 没有对应它的词元（其词表省去了 UTF-8 中从不出现的字节，GPT-NeoX 和 OLMo 1 都是如此）。请先删除或替换这些字节（例如用 iconv -c），或改用含全部 256 个字节的分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="171"/>
        <source>A vocab size of %(vocab_size)s is too small: it needs at least 256 bytes + %(n_special)s special token(s) = %(need)s. Choose %(need)s or more.</source>
        <translation>词表大小 %(vocab_size)s 太小：至少需要 256 个字节 + %(n_special)s 个特殊标记 = %(need)s。请选择 %(need)s 或更大的值。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="259"/>
        <source>%(file)s and %(merges_file)s: the vocab has %(count)s token(s) made by no merge, e.g. %(shown)s. The two files do not belong together (a truncated or different merges file?); only added tokens such as &lt;|endoftext|&gt; may lack a merge.</source>
        <translation>%(file)s 和 %(merges_file)s：词表中有 %(count)s 个词元没有任何合并能产生，例如 %(shown)s。这两个文件不是配套的（合并规则文件被截断了，或者是另一个分词器的？）；只有 &lt;|endoftext|&gt; 这类额外添加的词元可以没有对应的合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="957"/>
        <source>the tokenizer</source>
        <translation>该分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="958"/>
        <source>the base tokenizer</source>
        <translation>基础分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="959"/>
        <source>tokenizer A</source>
        <translation>分词器 A</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="960"/>
        <source>tokenizer B</source>
        <translation>分词器 B</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="177"/>
        <source>The file %(path)s does not exist. Check the path.</source>
        <translation>文件 %(path)s 不存在。请检查路径。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="68"/>
        <source>%(name)s: the pickle holds a %(what)s object. Only lists, tuples, dicts and bytes are read (nothing in the file is run): save the merges as a list of (bytes, bytes) pairs.</source>
        <translation>%(name)s：这个 pickle 里有一个 %(what)s 对象。只读取列表、元组、字典和字节串（文件中的任何代码都不会运行）：请把合并保存为 (bytes, bytes) 字节对的列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="73"/>
        <source>%(name)s is not a readable pickle (%(why)s). Save the merges with pickle.dump(merges, f) in a file opened with &apos;wb&apos;.</source>
        <translation>%(name)s 不是可读的 pickle 文件（%(why)s）。请用 pickle.dump(merges, f) 保存合并，文件以 &apos;wb&apos; 方式打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="78"/>
        <source>%(name)s holds a %(kind)s, not a merge list. Save the list of (bytes, bytes) pairs that train_bpe returns (or its (vocab, merges) tuple).</source>
        <translation>%(name)s 里是一个 %(kind)s，不是合并列表。请保存 train_bpe 返回的 (bytes, bytes) 字节对列表（或它的 (vocab, merges) 元组）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="83"/>
        <source>%(name)s: merge %(n)s is %(item)s, not a pair of two tokens.</source>
        <translation>%(name)s：第 %(n)s 个合并是 %(item)s，不是由两个词元组成的字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="86"/>
        <source>%(name)s: merge %(n)s is %(item)s; a JSON merge list holds pairs of strings.</source>
        <translation>%(name)s：第 %(n)s 个合并是 %(item)s；JSON 合并列表应由字符串对组成。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="89"/>
        <source>%(name)s: merge %(n)s is %(item)s, not a pair of bytes. train_bpe&apos;s merges are (bytes, bytes) pairs: save them before turning them into strings.</source>
        <translation>%(name)s：第 %(n)s 个合并是 %(item)s，不是字节串对。train_bpe 的合并是 (bytes, bytes) 字节对：请在把它们转成字符串之前保存。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="127"/>
        <source>The pre-tokenizer regex %(pattern)s can match the empty string, where Hugging Face tokenizers and tiktoken cut text otherwise (tiktoken fails), so the exported files would not give BPE Explorer&apos;s ids. Make every alternative match at least one character (+ instead of *, no ? after a whole alternative).</source>
        <translation>预分词正则表达式 %(pattern)s 能匹配空字符串；在这种位置上 Hugging Face tokenizers 和 tiktoken 切分文本的方式不同（tiktoken 会出错），导出的文件给出的 ID 会与 BPE Explorer 不一致。请让每个分支至少匹配一个字符（用 + 代替 *，不要在整个分支后面加 ?）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="178"/>
        <source>%(path)s is a folder. Choose a file.</source>
        <translation>%(path)s 是文件夹。请选择一个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="179"/>
        <source>Cannot read the file %(path)s: %(reason)s. Check its permissions.</source>
        <translation>无法读取文件 %(path)s：%(reason)s。请检查它的读取权限。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="182"/>
        <source>%(file)s, line %(line)s: not valid UTF-8 (byte %(byte)s). Tokenizer files are UTF-8 text.</source>
        <translation>%(file)s 第 %(line)s 行：不是有效的 UTF-8（字节 %(byte)s）。分词器文件应是 UTF-8 文本。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="186"/>
        <source>%(file)s, line %(line)s: not valid JSON (%(detail)s). The file is truncated or was edited by hand; download or export it again.</source>
        <translation>%(file)s 第 %(line)s 行：不是有效的 JSON（%(detail)s）。文件不完整（被截断），或被手工改坏了；请重新下载或重新导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="191"/>
        <source>%(file)s: the JSON is nested too deeply to read. No tokenizer file is nested that deep: the file is damaged or not a tokenizer.</source>
        <translation>%(file)s：JSON 嵌套太深，无法读取。分词器文件不会嵌套这么深：文件已损坏，或者根本不是分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="196"/>
        <source>%(file)s, lines %(line)s and %(line2)s: the key %(key)s appears twice. Each token must be listed once.</source>
        <translation>%(file)s 第 %(line)s 行和第 %(line2)s 行：键 %(key)s 出现了两次。每个词元只能列出一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="201"/>
        <source>%(file)s: the key %(key)s appears twice. Each token must be listed once.</source>
        <translation>%(file)s：键 %(key)s 出现了两次。每个词元只能列出一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="204"/>
        <source>%(file)s, line %(line)s: %(text)s has %(parts)s part(s). Each line of merges.txt must be two tokens separated by one space.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s 有 %(parts)s 个部分。merges.txt 的每一行必须是用一个空格隔开的两个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="209"/>
        <source>%(file)s, line %(line)s: %(text)s is not two tokens separated by one space. In a merges.txt a space inside a token is written with GPT-2&apos;s byte characters (&apos;Ġ t&apos; for b&apos; &apos; + b&apos;t&apos;): write each token with token_to_str, or save the merges with pickle.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s 不是用一个空格分开的两个词元。在 merges.txt 中，词元里的空格要用 GPT-2 字节字符书写（b&apos; &apos; + b&apos;t&apos; 写作 &apos;Ġ t&apos;）：请用 token_to_str 写出每个词元，或用 pickle 保存合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="215"/>
        <source>%(file)s, line %(line)s: %(text)s is not two bytes literals such as b&apos; &apos; b&apos;t&apos;.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s 不是像 b&apos; &apos; b&apos;t&apos; 这样的两个字节串字面量。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="218"/>
        <source>%(file)s, line %(line)s: %(text)s (%(codepoint)s) is not a GPT-2 byte character: this is not a byte-level merges file.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s（%(codepoint)s）不是 GPT-2 的字节字符：这不是字节级 BPE 的合并规则文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="223"/>
        <source>%(file)s, line %(line)s: the merge %(merge)s uses the token %(token)s, which is not in %(vocab)s. The two files do not belong together.</source>
        <translation>%(file)s 第 %(line)s 行：合并 %(merge)s 用到的词元 %(token)s 不在 %(vocab)s 中。这两个文件不是配套的。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="228"/>
        <source>%(file)s, line %(line)s: the merge %(merge)s makes the token %(token)s, which is not in %(vocab)s. The two files do not belong together.</source>
        <translation>%(file)s 第 %(line)s 行：合并 %(merge)s 产生的词元 %(token)s 不在 %(vocab)s 中。这两个文件不是配套的。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="233"/>
        <source>%(name)s: merge %(n)s is %(item)s, not two tokens; a merge is &quot;a b&quot; or [&quot;a&quot;, &quot;b&quot;].</source>
        <translation>%(name)s：第 %(n)s 个合并是 %(item)s，不是两个词元。一个合并写作 &quot;a b&quot; 或 [&quot;a&quot;, &quot;b&quot;]。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="236"/>
        <source>%(name)s: merge %(n)s holds %(text)s (%(codepoint)s), which is not a GPT-2 byte character. In &quot;a b&quot; merges each token is written in GPT-2&apos;s byte characters (&apos;Ġ&apos; for a space): write the tokens that way, or as pairs of strings.</source>
        <translation>%(name)s：第 %(n)s 个合并含有 %(text)s（%(codepoint)s），它不是 GPT-2 字节字符。在 &quot;a b&quot; 形式的合并中，每个词元都用 GPT-2 的字节字符书写（空格写作 &apos;Ġ&apos;）：请这样书写词元，或写成字符串对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="242"/>
        <source>%(name)s: merge %(n)s needs the token %(token)s, which is not in %(vocab)s; the merges and the vocab do not belong together.</source>
        <translation>%(name)s：第 %(n)s 个合并需要词元 %(token)s，但 %(vocab)s 中没有它；合并列表和词表不是配套的。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="247"/>
        <source>%(name)s: the &quot;vocab&quot; entry %(item)s is not id -&gt; token like its first entry. Give every entry as id -&gt; token, or every entry as token -&gt; id.</source>
        <translation>%(name)s：&quot;vocab&quot; 中的条目 %(item)s 不像第一个条目那样是 ID -&gt; 词元。请让所有条目都写成 ID -&gt; 词元，或都写成 词元 -&gt; ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="252"/>
        <source>%(name)s holds merges but no vocab, and merge %(n)s uses %(token)s, which is no byte and no earlier merge makes, so the ids cannot be derived from the merges. Put the vocab.json that goes with it beside it (looked for %(tried)s), add a &quot;vocab&quot; object to the file, or open the whole tokenizer.json.</source>
        <translation>%(name)s 只有合并列表，没有词表；第 %(n)s 个合并用到的 %(token)s 既不是单个字节，也不是前面的合并所产生的，因此无法从合并列表推算 ID。请把配套的 vocab.json 放在它旁边（已查找 %(tried)s），或在文件中加入 &quot;vocab&quot; 对象，或打开完整的 tokenizer.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="265"/>
        <source>%(file)s: no single-byte token for %(count)s byte(s) (%(shown)s). A byte-level BPE vocab has all 256 bytes (all but the 13 that never occur in UTF-8): this is not a complete byte-level tokenizer file.</source>
        <translation>%(file)s：有 %(count)s 个字节没有对应的单字节词元（%(shown)s）。字节级 BPE 的词表包含全部 256 个字节（UTF-8 中从不出现的 13 个除外）：这不是一个完整的字节级分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="271"/>
        <source>%(file)s%(where)s: the token %(key)s contains %(text)s (%(codepoint)s), which is not a GPT-2 byte character: this is not a byte-level BPE vocab.</source>
        <translation>%(file)s%(where)s：词元 %(key)s 含有 %(text)s（%(codepoint)s），它不是 GPT-2 的字节字符：这不是字节级 BPE 的词表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="276"/>
        <source>%(file)s%(where)s: id %(id)s is used by both %(text)s and %(key)s. Each id must name one token.</source>
        <translation>%(file)s%(where)s：ID %(id)s 同时给了 %(text)s 和 %(key)s。每个 ID 只能对应一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="280"/>
        <source>%(file)s%(where)s: the id of %(key)s is %(shown)s. Ids must be integers from 0 to 2^31-1.</source>
        <translation>%(file)s%(where)s：%(key)s 的 ID 是 %(shown)s。ID 必须是 0 到 2^31-1 之间的整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="284"/>
        <source>%(file)s%(where)s: a token is the empty string. Tokens need at least one byte.</source>
        <translation>%(file)s%(where)s：有一个词元是空字符串。词元至少要有一个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="287"/>
        <source>%(file)s, line %(line)s: %(text)s has %(parts)s part(s). Each line of a tiktoken file must be a base64 token and its rank.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s 有 %(parts)s 个部分。tiktoken 文件的每一行必须是一个 base64 编码的词元和它的排位。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="292"/>
        <source>%(file)s, line %(line)s: %(text)s is not valid base64. The file is damaged.</source>
        <translation>%(file)s 第 %(line)s 行：%(text)s 不是有效的 base64。文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="295"/>
        <source>%(file)s, line %(line)s: the rank %(text)s is not an integer from 0 to 2^31-1.</source>
        <translation>%(file)s 第 %(line)s 行：排位 %(text)s 不是 0 到 2^31-1 之间的整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="299"/>
        <source>%(file)s, line %(line)s: rank %(rank)s is already used on line %(first_line)s. Each rank must be unique.</source>
        <translation>%(file)s 第 %(line)s 行：排位 %(rank)s 在第 %(first_line)s 行已经用过。每个排位只能出现一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="304"/>
        <source>%(file)s, line %(line)s: the token %(shown)s is already listed on line %(first_line)s. Each token must be listed once.</source>
        <translation>%(file)s 第 %(line)s 行：词元 %(shown)s 在第 %(first_line)s 行已经列出。每个词元只能列出一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="309"/>
        <source>%(file)s: the session is of version %(version)s, newer than this BPE Explorer reads (%(supported)s). Update BPE Explorer to open it.</source>
        <translation>%(file)s：这个会话的版本是 %(version)s，比当前 BPE Explorer 能读取的版本（%(supported)s）新。请升级 BPE Explorer 后再打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="314"/>
        <source>%(file)s%(where)s: %(shown)s is not two tokens. A merge is &quot;a b&quot; or [&quot;a&quot;, &quot;b&quot;].</source>
        <translation>%(file)s%(where)s：%(shown)s 不是两个词元。一个合并写作 &quot;a b&quot; 或 [&quot;a&quot;, &quot;b&quot;]。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="318"/>
        <source>%(file)s%(where)s: %(text)s is not a GPT-2 byte character: this is not a byte-level BPE tokenizer.json.</source>
        <translation>%(file)s%(where)s：%(text)s 不是 GPT-2 的字节字符：这不是字节级 BPE 的 tokenizer.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="323"/>
        <source>%(file)s%(where)s: the merge %(shown)s needs the token %(token)s, which is not in the vocab.</source>
        <translation>%(file)s%(where)s：合并 %(shown)s 需要词元 %(token)s，但词表里没有它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="327"/>
        <source>%(file)s, line %(line)s: the token is empty. Tokens need at least one byte.</source>
        <translation>%(file)s 第 %(line)s 行：词元为空。词元至少要有一个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="332"/>
        <source>%(path)s is not a regular file (a FIFO or a device?). Choose a tokenizer file.</source>
        <translation>%(path)s 不是普通文件（是 FIFO 管道或设备？）。请选择一个分词器文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="335"/>
        <source>The folder %(path)s holds no tokenizer files. Choose a folder with bpe.json, tokenizer.json, vocab.json + merges.txt, bpe.tiktoken, a tekken*.json or a SentencePiece tokenizer.model.</source>
        <translation>文件夹 %(path)s 中没有分词器文件。请选择含有 bpe.json、tokenizer.json、vocab.json + merges.txt、bpe.tiktoken、tekken*.json 或 SentencePiece 的 tokenizer.model 的文件夹。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="340"/>
        <source>%(path)s does not exist. The name of an encoding is read only when evaluating; here choose its file, e.g. %(file)s (tiktoken&apos;s copy, or https://openaipublic.blob.core.windows.net/encodings/).</source>
        <translation>%(path)s 不存在。编码名称只在评估时才能直接使用；这里请选择它的文件，例如 %(file)s（tiktoken 缓存里的副本，或从 https://openaipublic.blob.core.windows.net/encodings/ 下载）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="346"/>
        <source>In the folder %(path)s, %(files)s is newer than %(chosen)s (written after it), so it may hold another tokenizer. Choose the file to open (e.g. %(example)s), or export all formats again.</source>
        <translation>文件夹 %(path)s 中的 %(files)s 比 %(chosen)s 新（在它之后写入），可能属于另一个分词器。请直接选择要打开的文件（例如 %(example)s），或重新导出全部格式。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="351"/>
        <source>%(file)s%(where)s: the special token %(token)s contains a lone surrogate (%(codepoint)s), which is not valid Unicode. The file is damaged: fix or remove that token.</source>
        <translation>%(file)s%(where)s：特殊标记 %(token)s 含有孤立的代理码位（%(codepoint)s），不是有效的 Unicode。文件已损坏：请修正或删除这个标记。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="356"/>
        <source>%(file)s is a Python pickle, not a GPT-2 %(what)s. Load it with pickle.load, then pass the vocab and merges to Tokenizer(vocab, merges, special_tokens), or write GPT-2 files from them with core.export_all.</source>
        <translation>%(file)s 是 Python 的 pickle 文件，不是 GPT-2 的 %(what)s。请先用 pickle.load 读出，再把词表和合并传给 Tokenizer(vocab, merges, special_tokens)，或用 core.export_all 把它们写成 GPT-2 文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="362"/>
        <source>%(file)s holds a %(kind)s, not a JSON object of token -&gt; id: this is not a GPT-2 vocab.json.</source>
        <translation>%(file)s 里是一个 %(kind)s，而不是“词元 -&gt; ID”的 JSON 对象：这不是 GPT-2 的 vocab.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="366"/>
        <source>%(file)s maps ids to tokens (%(shown)s …). A GPT-2 vocab.json maps each token, written in GPT-2&apos;s byte characters, to its id: pass the vocab and merges to Tokenizer(vocab, merges, special_tokens), or write GPT-2 files from them with core.export_all.</source>
        <translation>%(file)s 是从 ID 映射到词元（%(shown)s …）。GPT-2 的 vocab.json 是把每个词元（用 GPT-2 的字节字符书写）映射到它的 ID：请把词表和合并传给 Tokenizer(vocab, merges, special_tokens)，或用 core.export_all 把它们写成 GPT-2 文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="372"/>
        <source>%(file)s has no &quot;model&quot; object: it is not a HuggingFace tokenizer.json.</source>
        <translation>%(file)s 中没有 &quot;model&quot; 对象：它不是 HuggingFace 的 tokenizer.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="375"/>
        <source>%(file)s: the model type %(kind)s is unknown. BPE Explorer opens byte-level BPE and SentencePiece BPE tokenizers.</source>
        <translation>%(file)s：模型类型 %(kind)s 未知。BPE Explorer 能打开的是字节级 BPE 和 SentencePiece BPE 分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="380"/>
        <source>%(file)s: BPE dropout %(shown)s makes encoding random. Set &quot;dropout&quot; to null.</source>
        <translation>%(file)s：BPE dropout 为 %(shown)s，会让编码结果随机。请把 &quot;dropout&quot; 设为 null。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="383"/>
        <source>%(file)s: added_tokens is %(shown)s, not a list of tokens.</source>
        <translation>%(file)s：added_tokens 是 %(shown)s，不是词元列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="386"/>
        <source>%(file)s: added token %(index)s is %(shown)s. It needs a non-empty string content and a non-negative integer id.</source>
        <translation>%(file)s：第 %(index)s 个添加的词元（从 0 数起）是 %(shown)s。它需要非空的字符串 content 和非负整数 id。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="391"/>
        <source>%(file)s: the added token %(token)s has id %(id)s, which the vocab gives to %(shown)s. The file is inconsistent.</source>
        <translation>%(file)s：添加的词元 %(token)s 的 ID 是 %(id)s，而词表把这个 ID 给了 %(shown)s。文件前后矛盾。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="396"/>
        <source>%(file)s: model.vocab is missing or is not an object of token -&gt; id.</source>
        <translation>%(file)s：model.vocab 缺失，或不是“词元 -&gt; ID”的对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="399"/>
        <source>%(file)s%(where)s: id %(id)s is used twice (again by %(key)s). Each id must name one token.</source>
        <translation>%(file)s%(where)s：ID %(id)s 用了两次（%(key)s 又用了一次）。每个 ID 只能对应一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="403"/>
        <source>%(file)s: model.merges is not a list.</source>
        <translation>%(file)s：model.merges 不是列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="404"/>
        <source>%(file)s: %(key)s is %(shown)s, not a pre-tokenizer object with a &quot;type&quot;.</source>
        <translation>%(file)s：%(key)s 是 %(shown)s，不是带 &quot;type&quot; 的预分词器对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="407"/>
        <source>%(file)s: %(key)s is %(shown)s, not a list of pre-tokenizers.</source>
        <translation>%(file)s：%(key)s 是 %(shown)s，不是预分词器列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="410"/>
        <source>%(file)s: %(key)s is %(shown)s, not {&quot;Regex&quot;: &quot;...&quot;} or {&quot;String&quot;: &quot;...&quot;}.</source>
        <translation>%(file)s：%(key)s 是 %(shown)s，不是 {&quot;Regex&quot;: &quot;...&quot;} 或 {&quot;String&quot;: &quot;...&quot;}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="413"/>
        <source>%(file)s: the post-processor uses %(token)s, which is not a token.</source>
        <translation>%(file)s：后处理器用到了 %(token)s，但它不是词表里的词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="416"/>
        <source>%(file)s: the normalizer %(kind)s is not supported (supported: NFC, NFD, NFKC, NFKD, Lowercase, Replace, Prepend, Strip and a Sequence of them).</source>
        <translation>%(file)s：不支持规范化器 %(kind)s（支持：NFC、NFD、NFKC、NFKD、Lowercase、Replace、Prepend、Strip 以及由它们组成的 Sequence）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="421"/>
        <source>%(file)s: the pre-tokenizer %(kind)s is not supported (supported: Split, ByteLevel, Metaspace, Digits, Punctuation, Whitespace, WhitespaceSplit and a Sequence of them).</source>
        <translation>%(file)s：不支持预分词器 %(kind)s（支持：Split、ByteLevel、Metaspace、Digits、Punctuation、Whitespace、WhitespaceSplit 以及由它们组成的 Sequence）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="426"/>
        <source>%(file)s: the post-processor %(kind)s is not supported (supported: TemplateProcessing, ByteLevel, RobertaProcessing, BertProcessing, Sequence).</source>
        <translation>%(file)s：不支持后处理器 %(kind)s（支持：TemplateProcessing、ByteLevel、RobertaProcessing、BertProcessing、Sequence）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="431"/>
        <source>%(file)s: the pre-tokenizer has no ByteLevel step, so HuggingFace looks up characters, not bytes, in the vocab (a character-level tokenizer). BPE Explorer opens byte-level BPE.</source>
        <translation>%(file)s：预分词器里没有 ByteLevel 步骤，HuggingFace 会直接用字符而不是字节去查词表（这是字符级分词器）。BPE Explorer 打开的是字节级 BPE。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="436"/>
        <source>%(file)s: its normalizer, pre-tokenizer or post-processor cannot be used (%(detail)s). Compare it with a file HuggingFace writes.</source>
        <translation>%(file)s：其中的规范化器、预分词器或后处理器无法使用（%(detail)s）。请与 HuggingFace 写出的文件对照检查。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="441"/>
        <source>%(file)s: the post-processor is malformed (%(detail)s). Fix or remove it.</source>
        <translation>%(file)s：后处理器格式有误（%(detail)s）。请修正或删除它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="444"/>
        <source>%(file)s: the normalizer or pre-tokenizer is malformed (%(detail)s). Compare it with a file HuggingFace writes.</source>
        <translation>%(file)s：规范化器或预分词器格式有误（%(detail)s）。请与 HuggingFace 写出的文件对照检查。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="449"/>
        <source>%(file)s: the normalizer %(shown)s is not an object.</source>
        <translation>%(file)s：规范化器 %(shown)s 不是一个对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="452"/>
        <source>%(file)s: the pre-tokenizer %(shown)s is not an object.</source>
        <translation>%(file)s：预分词器 %(shown)s 不是一个对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="455"/>
        <source>%(file)s: the post-processor %(shown)s is not an object.</source>
        <translation>%(file)s：后处理器 %(shown)s 不是一个对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="456"/>
        <source>%(file)s: %(field)s is %(shown)s, not a string.</source>
        <translation>%(file)s：%(field)s 是 %(shown)s，不是字符串。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="457"/>
        <source>%(file)s: the %(kind)s post-processor needs cls and sep as [token, id] pairs.</source>
        <translation>%(file)s：%(kind)s 后处理器需要以 [词元, ID] 对的形式给出 cls 和 sep。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="460"/>
        <source>%(file)s: the TemplateProcessing item %(shown)s is not an object.</source>
        <translation>%(file)s：TemplateProcessing 的条目 %(shown)s 不是一个对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="463"/>
        <source>%(file)s: the TemplateProcessing special token %(token)s has the id %(shown)s, which is not an id.</source>
        <translation>%(file)s：TemplateProcessing 的特殊标记 %(token)s 的 ID 是 %(shown)s，这不是有效的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="468"/>
        <source>%(file)s: the TemplateProcessing item %(shown)s is neither a SpecialToken nor a Sequence.</source>
        <translation>%(file)s：TemplateProcessing 的条目 %(shown)s 既不是 SpecialToken 也不是 Sequence。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="472"/>
        <source>%(file)s: the %(step)s step has the pattern %(shown)s; expected {&quot;String&quot;: ...} or {&quot;Regex&quot;: ...}.</source>
        <translation>%(file)s：%(step)s 步骤的模式是 %(shown)s，应为 {&quot;String&quot;: ...} 或 {&quot;Regex&quot;: ...}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="477"/>
        <source>%(file)s: the regex %(pattern)s of the %(step)s step does not compile (%(detail)s).</source>
        <translation>%(file)s：%(step)s 步骤的正则表达式 %(pattern)s 无法编译（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="480"/>
        <source>%(file)s: the Split behaviour %(shown)s is unknown (expected one of %(names)s).</source>
        <translation>%(file)s：Split 的 behavior %(shown)s 未知（应为以下之一：%(names)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="483"/>
        <source>%(file)s: the Metaspace replacement %(shown)s is not one character.</source>
        <translation>%(file)s：Metaspace 的 replacement %(shown)s 不是单个字符。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="486"/>
        <source>%(file)s: the Metaspace prepend_scheme %(shown)s is not always, first or never.</source>
        <translation>%(file)s：Metaspace 的 prepend_scheme %(shown)s 不是 always、first 或 never。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="489"/>
        <source>%(file)s: the decoder cannot be used (%(detail)s).</source>
        <translation>%(file)s：解码器无法使用（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="490"/>
        <source>%(file)s: this SentencePiece model puts &apos;▁&apos; after words (treat_whitespace_as_suffix), which BPE Explorer does not reproduce. It opens models with the usual &apos;▁&apos; prefix.</source>
        <translation>%(file)s：这个 SentencePiece 模型把 &apos;▁&apos; 放在单词后面（treat_whitespace_as_suffix），BPE Explorer 无法重现这种方式。它只能打开按惯例把 &apos;▁&apos; 放在前面的模型。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="495"/>
        <source>%(file)s: the precompiled character map cannot be read (%(detail)s). The file is damaged.</source>
        <translation>%(file)s：预编译字符映射表无法读取（%(detail)s）。文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="499"/>
        <source>%(file)s: piece %(index)s (%(text)s) has the unknown type %(kind)s.</source>
        <translation>%(file)s：第 %(index)s 个片段（%(text)s）的类型 %(kind)s 未知。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="502"/>
        <source>%(file)s: piece %(index)s is a byte piece named %(text)s, not &lt;0xXX&gt;.</source>
        <translation>%(file)s：第 %(index)s 个片段是字节片段，但名字是 %(text)s，而不是 &lt;0xXX&gt;。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="505"/>
        <source>%(file)s: piece %(index)s is empty. The file is damaged.</source>
        <translation>%(file)s：第 %(index)s 个片段为空。文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="506"/>
        <source>%(file)s: the piece %(text)s is listed twice (ids %(first)s and %(second)s).</source>
        <translation>%(file)s：片段 %(text)s 出现了两次（ID %(first)s 和 %(second)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="509"/>
        <source>%(file)s: id %(id)s is used twice (%(text)s and %(key)s). Each id names one token.</source>
        <translation>%(file)s：ID %(id)s 用了两次（%(text)s 和 %(key)s）。每个 ID 只能对应一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="512"/>
        <source>%(file)s: the unk_token %(token)s is not in the vocab.</source>
        <translation>%(file)s：unk_token %(token)s 不在词表中。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="513"/>
        <source>%(file)s looks like a SentencePiece .model file but cannot be read (%(detail)s). The file is damaged or truncated: download it again.</source>
        <translation>%(file)s 看起来是 SentencePiece 的 .model 文件，但无法读取（%(detail)s）。文件已损坏或不完整：请重新下载。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="518"/>
        <source>%(file)s: a SentencePiece .model file without pieces. The file is damaged.</source>
        <translation>%(file)s：这个 SentencePiece 的 .model 文件里没有任何片段。文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="521"/>
        <source>This SentencePiece model normalizes text with a precompiled character map (rule %(rule)s), which BPE Explorer does not write to tokenizer.json. Export the native bpe.json instead.</source>
        <translation>这个 SentencePiece 模型用预编译字符映射表（规则 %(rule)s）规范化文本，BPE Explorer 无法把它写进 tokenizer.json。请改为导出本程序的 bpe.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="526"/>
        <source>This SentencePiece model removes extra spaces (remove_extra_whitespaces), which a tokenizer.json cannot do the same way. Export the native bpe.json instead.</source>
        <translation>这个 SentencePiece 模型会删除多余的空格（remove_extra_whitespaces），tokenizer.json 无法以相同方式做到。请改为导出本程序的 bpe.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="531"/>
        <source>This SentencePiece model has unused pieces (split back after merging), which HuggingFace&apos;s BPE cannot do. Export the native bpe.json instead.</source>
        <translation>这个 SentencePiece 模型有“未使用”片段（合并后又会被拆回），HuggingFace 的 BPE 做不到这一点。请改为导出本程序的 bpe.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="536"/>
        <source>%(count)s piece(s) of this model (e.g. %(shown)s) do not encode to themselves, so HuggingFace&apos;s BPE cannot keep its user-defined pieces whole without changing their ids. Export the native bpe.json instead.</source>
        <translation>这个模型有 %(count)s 个片段（例如 %(shown)s）编码后不是它们自己，因此 HuggingFace 的 BPE 无法在不改变 ID 的前提下保持这些用户自定义片段完整。请改为导出本程序的 bpe.json。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="542"/>
        <source>%(file)s: the config needs a pattern and integer default_vocab_size and default_num_special_tokens (default_vocab_size larger than the number of special tokens).</source>
        <translation>%(file)s：config 需要一个模式以及整数 default_vocab_size 和 default_num_special_tokens（default_vocab_size 要大于特殊标记的数量）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="547"/>
        <source>%(file)s: default_num_special_tokens is %(count)s; mistral-common files reserve about 1,000 and this reader takes at most %(most)s. The file is damaged.</source>
        <translation>%(file)s：default_num_special_tokens 为 %(count)s；mistral-common 的文件约预留 1,000 个，本程序最多读取 %(most)s 个。文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="552"/>
        <source>%(file)s: the vocab lists %(count)s tokens, but default_vocab_size %(vocab_size)s - %(n_special)s special tokens needs %(need)s.</source>
        <translation>%(file)s：词表列出了 %(count)s 个词元，但 default_vocab_size %(vocab_size)s 减去 %(n_special)s 个特殊标记需要 %(need)s 个。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="557"/>
        <source>%(file)s: vocab entry %(index)s has rank %(shown)s. Ranks must be 0, 1, 2 … in order.</source>
        <translation>%(file)s：词表第 %(index)s 项的排位是 %(shown)s。排位必须按 0、1、2 … 的顺序排列。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="560"/>
        <source>%(file)s: vocab entry %(index)s is not {&quot;rank&quot;, &quot;token_bytes&quot; (base64)}.</source>
        <translation>%(file)s：词表第 %(index)s 项不是 {&quot;rank&quot;, &quot;token_bytes&quot;（base64）}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="563"/>
        <source>%(file)s: vocab entry %(index)s is an empty token.</source>
        <translation>%(file)s：词表第 %(index)s 项是空词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="564"/>
        <source>%(file)s: special_tokens is not a list of {&quot;rank&quot;, &quot;token_str&quot;}.</source>
        <translation>%(file)s：special_tokens 不是由 {&quot;rank&quot;, &quot;token_str&quot;} 组成的列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="567"/>
        <source>%(file)s: %(count)s special tokens (some repeated?) for %(n_special)s special ids.</source>
        <translation>%(file)s：%(n_special)s 个特殊 ID 却对应 %(count)s 个特殊标记（有重复的？）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="570"/>
        <source>%(file)s: the pattern of this tekken file cannot be used (%(detail)s).</source>
        <translation>%(file)s：这个 tekken 文件中的模式无法使用（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="573"/>
        <source>%(file)s: %(name)s has no special token %(token)s (it has %(shown)s …). Give new ones as TOKEN=ID.</source>
        <translation>%(file)s：%(name)s 没有特殊标记 %(token)s（它有 %(shown)s …）。新的特殊标记请写成 TOKEN=ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="578"/>
        <source>The special token %(token)s is given the id %(shown)s. Ids are integers from 0 to 2^31-1.</source>
        <translation>特殊标记 %(token)s 的 ID 是 %(shown)s。ID 必须是 0 到 2^31-1 之间的整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="582"/>
        <source>The special token %(token)s is given the id %(id)s, which the file already uses for %(shown)s. Choose an unused id.</source>
        <translation>特殊标记 %(token)s 的 ID 是 %(id)s，但文件里这个 ID 已经给了 %(shown)s。请选一个没用过的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="587"/>
        <source>The special tokens %(shown)s have no id while others do. Give every one as TOKEN=ID (e.g. &lt;|endoftext|&gt;=100257), or none of them.</source>
        <translation>特殊标记 %(shown)s 没有 ID，而其他的有。请每个都写成 TOKEN=ID（例如 &lt;|endoftext|&gt;=100257），或者都不写 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="592"/>
        <source>Two special tokens are given the same id. Each needs its own.</source>
        <translation>有两个特殊标记用了同一个 ID。每个特殊标记都需要自己的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="595"/>
        <source>%(file)s is not a BPE Explorer file (its &quot;format&quot; is not bpe-explorer).</source>
        <translation>%(file)s 不是 BPE Explorer 的文件（它的 &quot;format&quot; 不是 bpe-explorer）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="598"/>
        <source>%(file)s%(where)s: the version %(shown)s is not a positive integer.</source>
        <translation>%(file)s%(where)s：版本 %(shown)s 不是正整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="601"/>
        <source>%(file)s%(where)s: the format version %(version)s is newer than this BPE Explorer reads (%(supported)s). Update BPE Explorer to open it.</source>
        <translation>%(file)s%(where)s：格式版本 %(version)s 比当前 BPE Explorer 能读取的版本（%(supported)s）新。请升级 BPE Explorer 后再打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="606"/>
        <source>%(file)s%(where)s: token_encoding must be &apos;base64&apos;.</source>
        <translation>%(file)s%(where)s：token_encoding 必须是 &apos;base64&apos;。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="607"/>
        <source>%(file)s%(where)s: &quot;pattern&quot; must be a string (&apos;gpt2&apos;, &apos;gpt4&apos;, &apos;none&apos; or a regular expression).</source>
        <translation>%(file)s%(where)s：&quot;pattern&quot; 必须是字符串（&apos;gpt2&apos;、&apos;gpt4&apos;、&apos;none&apos; 或一个正则表达式）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="612"/>
        <source>%(file)s%(where)s: the pattern cannot be used (%(detail)s).</source>
        <translation>%(file)s%(where)s：其中的模式无法使用（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="615"/>
        <source>%(file)s%(where)s: tie_break %(shown)s must be &apos;lexicographic&apos;, &apos;first&apos; or null.</source>
        <translation>%(file)s%(where)s：tie_break 为 %(shown)s，但它必须是 &apos;lexicographic&apos;、&apos;first&apos; 或 null。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="618"/>
        <source>%(file)s%(where)s: &quot;pipeline&quot; must be an object (an imported tokenizer.json&apos;s normalizer, pre-tokenizer and post-processor) or absent.</source>
        <translation>%(file)s%(where)s：&quot;pipeline&quot; 必须是一个对象（导入的 tokenizer.json 的规范化器、预分词器和后处理器），或者不写。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="623"/>
        <source>%(file)s%(where)s: the pipeline cannot be used (%(detail)s). The file was edited by hand or is damaged.</source>
        <translation>%(file)s%(where)s：pipeline 无法使用（%(detail)s）。文件被手工改过或已损坏。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="628"/>
        <source>%(file)s%(where)s: &quot;%(field)s&quot; must be a list.</source>
        <translation>%(file)s%(where)s：&quot;%(field)s&quot; 必须是列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="629"/>
        <source>%(file)s%(where)s: %(shown)s is not an [id, base64] entry (id from 0 to 2^31-1).</source>
        <translation>%(file)s%(where)s：%(shown)s 不是 [id, base64] 形式的条目（id 在 0 到 2^31-1 之间）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="632"/>
        <source>%(file)s%(where)s: %(shown)s is not valid base64.</source>
        <translation>%(file)s%(where)s：%(shown)s 不是有效的 base64。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="633"/>
        <source>%(file)s%(where)s: the token with id %(id)s is empty. Tokens need at least one byte.</source>
        <translation>%(file)s%(where)s：ID 为 %(id)s 的词元是空的。词元至少要有一个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="636"/>
        <source>%(file)s%(where)s: id %(id)s is listed twice. Each id must be listed once.</source>
        <translation>%(file)s%(where)s：ID %(id)s 出现了两次。每个 ID 只能列出一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="639"/>
        <source>%(file)s%(where)s: %(shown)s is not {&quot;id&quot;: int, &quot;content&quot;: str}.</source>
        <translation>%(file)s%(where)s：%(shown)s 不是 {&quot;id&quot;: int, &quot;content&quot;: str}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="642"/>
        <source>%(file)s%(where)s: the special token %(token)s has id %(id)s, but the vocab gives that id to %(shown)s.</source>
        <translation>%(file)s%(where)s：特殊标记 %(token)s 的 ID 是 %(id)s，但词表把这个 ID 给了 %(shown)s。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="647"/>
        <source>%(file)s%(where)s: the special token %(token)s is listed twice.</source>
        <translation>%(file)s%(where)s：特殊标记 %(token)s 出现了两次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="650"/>
        <source>%(file)s%(where)s: %(shown)s is not an [id, id] pair.</source>
        <translation>%(file)s%(where)s：%(shown)s 不是 [id, id] 形式的一对 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="651"/>
        <source>%(file)s%(where)s: merge %(n)s uses id %(id)s, which is not in the vocab.</source>
        <translation>%(file)s%(where)s：第 %(n)s 个合并（从 0 数起）用到的 ID %(id)s 不在词表中。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="654"/>
        <source>%(file)s%(where)s: merge %(n)s makes %(shown)s, which is not in the vocab.</source>
        <translation>%(file)s%(where)s：第 %(n)s 个合并（从 0 数起）产生的 %(shown)s 不在词表中。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="657"/>
        <source>%(file)s%(where)s: &quot;training&quot; must be an object or null.</source>
        <translation>%(file)s%(where)s：&quot;training&quot; 必须是对象或 null。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="660"/>
        <source>%(file)s%(where)s: %(field)s must be a list of integers.</source>
        <translation>%(file)s%(where)s：%(field)s 必须是整数列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="663"/>
        <source>%(file)s%(where)s: %(field)s has %(count)s entries for %(n_merges)s merges. The training record does not belong to these merges.</source>
        <translation>%(file)s%(where)s：%(field)s 有 %(count)s 项，而合并有 %(n_merges)s 个。这份训练记录与这些合并不匹配。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="668"/>
        <source>Merge %(rank)s %(shown)s uses a token that is not in the vocab. Fix the tokenizer before saving.</source>
        <translation>第 %(rank)s 个合并 %(shown)s 用到了词表中没有的词元。请先修正分词器再保存。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="673"/>
        <source>The training record has %(count)s %(key)s for %(n_merges)s merges. The file is inconsistent: export it again.</source>
        <translation>训练记录中有 %(count)s 个 %(key)s，而合并有 %(n_merges)s 个。文件前后矛盾：请重新导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="678"/>
        <source>%(file)s: &quot;session&quot; must be an object.</source>
        <translation>%(file)s：&quot;session&quot; 必须是一个对象。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="679"/>
        <source>%(file)s: the session version %(shown)s is not a positive integer.</source>
        <translation>%(file)s：会话版本 %(shown)s 不是正整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="682"/>
        <source>%(file)s: %(field)s has the wrong type (%(kind)s).</source>
        <translation>%(file)s：%(field)s 的类型不对（%(kind)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="683"/>
        <source>%(file)s: %(field)s is %(value)s; it must be from %(low)s to 2^31-1.</source>
        <translation>%(file)s：%(field)s 为 %(value)s；它必须在 %(low)s 到 2^31-1 之间。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="686"/>
        <source>Cannot read the corpus %(path)s to save the session: %(reason)s.</source>
        <translation>无法读取语料 %(path)s，因此不能保存会话：%(reason)s。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="689"/>
        <source>%(path)s is a folder. Choose a file name to write to.</source>
        <translation>%(path)s 是文件夹。请选择一个要写入的文件名。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="690"/>
        <source>The folder %(path)s does not exist. Create it first.</source>
        <translation>文件夹 %(path)s 不存在。请先创建它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="691"/>
        <source>Cannot write %(path)s: %(reason)s. Check the folder&apos;s permissions and free space (the previous file is unchanged).</source>
        <translation>无法写入 %(path)s：%(reason)s。请检查文件夹的写入权限和剩余空间（原来的文件没有改动）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="696"/>
        <source>Cannot write %(path)s: %(reason)s. The previous files are unchanged.</source>
        <translation>无法写入 %(path)s：%(reason)s。原来的文件都没有改动。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="699"/>
        <source>Cannot write %(path)s: %(reason)s. %(done)s already replaced, the other files are unchanged: export again.</source>
        <translation>无法写入 %(path)s：%(reason)s。%(done)s 已被替换，其余文件没有改动：请重新导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="704"/>
        <source>%(path)s is a file. Export needs a folder.</source>
        <translation>%(path)s 是一个文件。导出需要的是文件夹。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="705"/>
        <source>Cannot create the folder %(path)s: %(reason)s.</source>
        <translation>无法创建文件夹 %(path)s：%(reason)s。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="706"/>
        <source>Ids %(first)s and %(second)s are the same token %(shown)s; %(fmt)s can hold each token once. Use the native bpe.json format.</source>
        <translation>ID %(first)s 和 %(second)s 是同一个词元 %(shown)s；%(fmt)s 中每个词元只能出现一次。请使用本程序的 bpe.json 格式。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="711"/>
        <source>The %(fmt)s format cannot hold %(lost)s of this imported tokenizer, so the exported files would give different ids. Export tokenizer.json or bpe.json (they keep all of it), or export anyway without them.</source>
        <translation>%(fmt)s 格式无法保存这个导入的分词器的%(lost)s，导出的文件会给出不同的 ID。请导出 tokenizer.json 或 bpe.json（它们能完整保存），或者仍然导出、舍弃这些部分。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="717"/>
        <source>The %(fmt)s format cannot hold this tokenizer&apos;s pattern %(pattern)s: it does not match all text (no alternative matches %(chars)s), and tiktoken drops the text its pattern does not match, so the file would lose that text. Export tokenizer.json or bpe.json, or export anyway.</source>
        <translation>%(fmt)s 格式无法保存这个分词器的预分词模式 %(pattern)s：它不能匹配所有文本（没有分支匹配 %(chars)s），而 tiktoken 会丢掉模式匹配不到的文本，因此该文件会丢失这些文本。请导出 tokenizer.json 或 bpe.json，或者仍然导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="723"/>
        <source>The %(fmt)s format cannot hold this tokenizer&apos;s pattern %(pattern)s: it can match the empty string, and tiktoken fails on text where it does. Export tokenizer.json or bpe.json, or export anyway.</source>
        <translation>%(fmt)s 格式无法保存这个分词器的预分词模式 %(pattern)s：它能匹配空字符串，而 tiktoken 在出现空匹配的文本上会出错。请导出 tokenizer.json 或 bpe.json，或者仍然导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="729"/>
        <source>The tiktoken format cannot hold special tokens of which one begins another (%(first)s begins %(second)s): tiktoken may take the shorter where BPE Explorer and Hugging Face tokenizers take the longest. Export tokenizer.json or bpe.json, or export anyway.</source>
        <translation>tiktoken 格式无法保存一个以另一个开头的特殊标记（%(first)s 是 %(second)s 的开头）：tiktoken 可能取较短的那个，而 BPE Explorer 和 Hugging Face tokenizers 取最长的。请导出 tokenizer.json 或 bpe.json，或者仍然导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="735"/>
        <source>The tiktoken format cannot hold the order of this tokenizer&apos;s merges: tiktoken merges by token rank (the adjacent pair that makes the token of lowest id first), where BPE Explorer and Hugging Face tokenizers apply the merge list in its order, and here the two give other ids (%(text)s → %(tiktoken)s with tiktoken, %(ours)s here). Export tokenizer.json or bpe.json, or export anyway.</source>
        <translation>tiktoken 格式无法保存此分词器的合并顺序：tiktoken 按标记的排名合并（先合并组成 ID 最小的标记的相邻一对），而 BPE Explorer 和 Hugging Face tokenizers 按合并列表的顺序合并，此处两者得到不同的 ID（%(text)s → tiktoken 得到 %(tiktoken)s，此处得到 %(ours)s）。请导出 tokenizer.json 或 bpe.json，或者仍然导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="743"/>
        <source>Special token %(token)s (id %(id)s) is not UTF-8: %(formats)s cannot hold it as a special token (a tokenizer.json and tiktoken&apos;s special tokens are text). Export GPT-2 files or bpe.json (they hold its bytes), or export anyway with it as an ordinary token of the vocab.</source>
        <translation>特殊标记 %(token)s（id %(id)s）不是 UTF-8：%(formats)s 无法把它存为特殊标记（tokenizer.json 和 tiktoken 的特殊标记都是文本）。请导出 GPT-2 文件或 bpe.json（它们保存它的字节），或者仍然导出，让它作为词表中的普通词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="749"/>
        <source>%(path)s is not a regular file (a FIFO, socket or device?). Save the text to a file first.</source>
        <translation>%(path)s 不是普通文件（是 FIFO 管道、套接字或设备？）。请先把文本保存成文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="753"/>
        <source>%(path)s is a FIFO, pipe or device, which can be read only once; the app needs a file it can read again. Save the text to a file first (the command line can stream it: bpe-explorer train FILE).</source>
        <translation>%(path)s 是 FIFO、管道或设备，只能读取一次；本程序需要能反复读取的文件。请先把文本保存成文件（命令行可以流式读取它：bpe-explorer train FILE）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="759"/>
        <source>A counting process&apos;s temporary file %(path)s was cut short (is the disk full?). Free some space there, point TMPDIR at a folder with more room, or count in one process.</source>
        <translation>计数进程的临时文件 %(path)s 不完整（磁盘满了？）。请在那里腾出一些空间，把 TMPDIR 指向空间更大的文件夹，或者只用一个进程计数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="764"/>
        <source>Counting in several processes needs room for temporary files in %(folder)s (%(reason)s). Free some space there, point TMPDIR at a folder with more room, or count in one process.</source>
        <translation>多进程计数需要在 %(folder)s 中存放临时文件（%(reason)s）。请在那里腾出空间，把 TMPDIR 指向空间更大的文件夹，或改用单进程计数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="769"/>
        <source>A counting process could not open a temporary file in %(folder)s (%(reason)s). Raise the limit on open files (ulimit -n), or count in one process.</source>
        <translation>一个计数进程无法在 %(folder)s 中打开临时文件（%(reason)s）。请提高可打开文件数的上限（ulimit -n），或改用单进程计数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="774"/>
        <source>A worker process ended unexpectedly (%(exit_reason)s).</source>
        <translation>一个工作进程意外结束（%(exit_reason)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="775"/>
        <source>Could not start a %(name)s process: %(reason)s (%(python)s). Check that this Python is installed and runnable, or use one process.</source>
        <translation>无法启动 %(name)s 进程：%(reason)s（%(python)s）。请检查这个 Python 是否已安装且能运行，或改用单进程。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="780"/>
        <source>Could not start a %(name)s process (%(exit_reason)s); its own error, if any, is printed in the terminal. Check that this Python can import the package (%(python)s), or use one process.</source>
        <translation>无法启动 %(name)s 进程（%(exit_reason)s）；它自己的错误信息（如果有）打印在终端里。请检查这个 Python（%(python)s）能否导入本程序的包，或改用单进程。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="785"/>
        <source>The training engine stopped unexpectedly (%(exit_reason)s). The loaded corpus is gone: open it again.</source>
        <translation>训练引擎意外停止（%(exit_reason)s）。已加载的语料丢失了：请重新打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="790"/>
        <source>The training engine could not start.</source>
        <translation>训练引擎无法启动。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="791"/>
        <source>The training engine could not start: %(cause)s</source>
        <translation>训练引擎无法启动：%(cause)s</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="792"/>
        <source>The training engine was stopped (SIGSTOP) for more than %(seconds)s s and has been ended. The loaded corpus is gone: open it again.</source>
        <translation>训练引擎被暂停（SIGSTOP）超过 %(seconds)s 秒，已被结束。已加载的语料丢失了：请重新打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="797"/>
        <source>The training engine sent an unreadable reply (%(detail)s). The loaded corpus is gone: open it again.</source>
        <translation>训练引擎发回了无法读取的回复（%(detail)s）。已加载的语料丢失了：请重新打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="802"/>
        <source>%(name)s has no &apos;bpe_explorer&apos; metadata: give the pattern (and the special tokens, if any) it was counted with.</source>
        <translation>%(name)s 没有 &apos;bpe_explorer&apos; 元数据：请给出计数时用的模式（以及特殊标记，如果有的话）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="807"/>
        <source>The counts were made with the pattern &apos;%(made)s&apos;, not &apos;%(given)s&apos;. Train with the counts&apos; own pattern, or count again with this one.</source>
        <translation>这些计数是用模式 &apos;%(made)s&apos; 得到的，不是 &apos;%(given)s&apos;。请用计数自带的模式训练，或用这个模式重新计数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="812"/>
        <source>The counts were made with the special tokens %(made)s, not %(given)s. Train with the counts&apos; own special tokens, or count again with these.</source>
        <translation>这些计数是用特殊标记 %(made)s 得到的，不是 %(given)s。请用计数自带的特殊标记训练，或用这些特殊标记重新计数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="817"/>
        <source>The counts have no first_file/first_offset columns, which the &apos;first&apos; tie rule needs (each token&apos;s first occurrence). Train with the lexicographic tie rule, or write those columns.</source>
        <translation>这些计数没有 first_file/first_offset 列，而“最先出现者胜出”的平局规则需要它们（每个词元第一次出现的位置）。请改用字典序平局规则训练，或补上这两列。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="822"/>
        <source>%(name)s lacks the column(s) %(columns)s. A counts file has token (binary), count (int64), and first_file (int32), first_offset (int64) for the &apos;first&apos; tie rule (both or neither).</source>
        <translation>%(name)s 缺少列 %(columns)s。计数文件应有 token（binary）、count（int64），以及供“最先出现者胜出”平局规则使用的 first_file（int32）和 first_offset（int64）（两列要么都有，要么都没有）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="827"/>
        <source>%(name)s: the column types do not fit the counts schema (%(detail)s).</source>
        <translation>%(name)s：列的类型与计数文件的格式不符（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="830"/>
        <source>%(name)s: every row needs a token and a count of at least 1.</source>
        <translation>%(name)s：每一行都需要一个词元和至少为 1 的次数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="831"/>
        <source>%(name)s lists a token twice. Sum the rows per token (group by token).</source>
        <translation>%(name)s 中有词元出现了两次。请按词元把各行的次数加起来（按 token 分组）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="834"/>
        <source>%(name)s: first_file and first_offset need a value in every row (the file index and byte offset of the token&apos;s first occurrence).</source>
        <translation>%(name)s：每一行的 first_file 和 first_offset 都要有值（词元第一次出现处的文件索引和字节偏移）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="839"/>
        <source>%(name)s: first_file and first_offset must be at least 0.</source>
        <translation>%(name)s：first_file 和 first_offset 不能小于 0。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="842"/>
        <source>%(name)s: first_file goes up to %(highest)s but the metadata lists %(count)s source file(s). List every file in &apos;sources&apos;, in order.</source>
        <translation>%(name)s：first_file 最大到 %(highest)s，但元数据只列出了 %(count)s 个源文件。请在 &apos;sources&apos; 中按顺序列出每个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="847"/>
        <source>The counts file %(path)s does not exist. Check the path.</source>
        <translation>计数文件 %(path)s 不存在。请检查路径。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="848"/>
        <source>%(path)s is a folder without data files. Choose a counts file made by &apos;count&apos;, or a folder of Parquet parts (as Spark or Dask write them).</source>
        <translation>%(path)s 是一个没有数据文件的文件夹。请选择由 &apos;count&apos; 生成的计数文件，或由 Parquet 分片组成的文件夹（Spark 或 Dask 写出的那种）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="853"/>
        <source>%(name)s is not a readable Parquet counts file (%(detail)s).</source>
        <translation>%(name)s 不是可读取的 Parquet 计数文件（%(detail)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="856"/>
        <source>%(name)s holds the counts of %(count)s separate runs (their part files carry different metadata). Open each file on its own, not the folder.</source>
        <translation>%(name)s 里是 %(count)s 次不同计数的结果（各分片文件的元数据不同）。请分别打开每个文件，而不是整个文件夹。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="861"/>
        <source>Counts files need pyarrow: pip install &quot;bpe-explorer[scale]&quot;.</source>
        <translation>读取计数文件需要 pyarrow：pip install &quot;bpe-explorer[scale]&quot;。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="864"/>
        <source>%(name)s: the metadata &apos;bpe_explorer&apos; is not a counts record.</source>
        <translation>%(name)s：元数据 &apos;bpe_explorer&apos; 不是计数记录。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="867"/>
        <source>%(name)s is of counts format version %(version)s; this BPE Explorer reads up to %(supported)s. Update BPE Explorer to open it.</source>
        <translation>%(name)s 的计数格式版本是 %(version)s；当前 BPE Explorer 最多能读取版本 %(supported)s。请升级 BPE Explorer 后再打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="872"/>
        <source>%(name)s: the metadata &apos;bpe_explorer&apos; cannot be read (%(detail)s). See the README&apos;s counts schema.</source>
        <translation>%(name)s：元数据 &apos;bpe_explorer&apos; 无法读取（%(detail)s）。请参阅 README 中的计数文件格式说明。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="877"/>
        <source>%(name)s: the metadata &apos;bpe_explorer&apos; has no &apos;pattern&apos;. Add the pattern the counts were made with (&quot;gpt2&quot;, &quot;gpt4&quot;, the regex, or null for no pre-tokenization).</source>
        <translation>%(name)s：元数据 &apos;bpe_explorer&apos; 中没有 &apos;pattern&apos;。请补上计数时用的模式（&quot;gpt2&quot;、&quot;gpt4&quot;、正则表达式，或表示不预分词的 null）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="882"/>
        <source>%(name)s: the metadata &apos;bpe_explorer&apos; has the pattern %(pattern)s but pattern_name %(shown)s. Make them agree.</source>
        <translation>%(name)s：元数据 &apos;bpe_explorer&apos; 中的 pattern 是 %(pattern)s，而 pattern_name 是 %(shown)s。请让两者一致。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="887"/>
        <location filename="../../bpe_gui/text/errors.py" line="888"/>
        <source>A word count is %(shown)s. Counts must be positive integers.</source>
        <translation>有一个单词的次数是 %(shown)s。次数必须是正整数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="891"/>
        <source>The counts sum to %(total)s over words of up to %(longest)s bytes: a pair could be counted %(pairs)s times, more than this trainer sums exactly (2^62). These counts are damaged or too large.</source>
        <translation>这些次数总和为 %(total)s，单词最长 %(longest)s 个字节：一个字节对可能被计 %(pairs)s 次，超过了训练器能精确累加的上限（2^62）。这些计数已损坏或过大。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="897"/>
        <source>The pair %(shown)s does not occur in the corpus now; it cannot be merged.</source>
        <translation>字节对 %(shown)s 现在已不在语料中出现，无法合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="900"/>
        <source>Extending a SentencePiece-style (character-level) BPE tokenizer is not supported. Extend a byte-level one (GPT-2, tokenizer.json, tiktoken, bpe.json).</source>
        <translation>不支持扩展 SentencePiece 式（字符级）的 BPE 分词器。请扩展字节级的分词器（GPT-2、tokenizer.json、tiktoken、bpe.json）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="905"/>
        <source>A vocab size of %(vocab_size)s is smaller than the base tokenizer&apos;s %(base)s tokens; an extension keeps them all. Choose a vocab size above %(base)s.</source>
        <translation>词表大小 %(vocab_size)s 小于基础分词器的 %(base)s 个词元；扩展会保留它们全部。请选择大于 %(base)s 的词表大小。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="910"/>
        <source>The training record says this tokenizer extends one of %(n_vocab)s tokens and %(n_merges)s merges, which does not fit its %(vocab)s tokens and %(merges)s merges. The file is inconsistent: export it again.</source>
        <translation>训练记录说这个分词器扩展自一个有 %(n_vocab)s 个词元、%(n_merges)s 个合并的分词器，但它自己只有 %(vocab)s 个词元和 %(merges)s 个合并。文件前后矛盾：请重新导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="916"/>
        <source>The id %(id)s is not in this vocabulary (ids %(lo)s..%(hi)s). Give an id it has.</source>
        <translation>ID %(id)s 不在这个词表中（ID 范围 %(lo)s..%(hi)s）。请输入词表中有的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="919"/>
        <source>%(shown)s is not a token of this vocabulary. Give a token&apos;s text or its id.</source>
        <translation>%(shown)s 不是这个词表中的词元。请输入词元的文本或它的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="922"/>
        <source>%(shown)s is not a token of this vocabulary; this tokenizer cuts it into %(count)s tokens (%(parts)s). Trace one of them by its id or its text.</source>
        <translation>%(shown)s 不是这个词表中的词元；这个分词器把它切成 %(count)s 个词元（%(parts)s）。请用其中一个的 ID 或文本来追踪。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="927"/>
        <source>The text contains a lone surrogate (%(codepoint)s at character %(index)s), which is not valid Unicode. Fix the text.</source>
        <translation>文本中含有孤立的代理码位（第 %(index)s 个字符处的 %(codepoint)s），不是有效的 Unicode。请修正文本。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="932"/>
        <source>No tokenizer to evaluate. Add at least one.</source>
        <translation>没有要评估的分词器。请至少添加一个。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="933"/>
        <source>No text to evaluate on. Add at least one file.</source>
        <translation>没有用于评估的文本。请至少添加一个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="934"/>
        <source>The tokenizer %(text)s is neither a file or folder nor a known encoding. Give a path or one of %(names)s.</source>
        <translation>分词器 %(text)s 既不是文件或文件夹，也不是已知的编码。请给出路径，或以下之一：%(names)s。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="939"/>
        <source>Unknown tokenizer %(text)s; did you mean %(shown)s?</source>
        <translation>未知的分词器 %(text)s；你是不是想输入 %(shown)s？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="940"/>
        <source>Sampling %(n)s documents: sample at least 1 document.</source>
        <translation>抽样 %(n)s 篇文档：至少要抽 1 篇。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="941"/>
        <source>Sampling documents needs a split token: documents are the pieces between its occurrences.</source>
        <translation>抽样文档需要一个分隔标记：文档就是它每两次出现之间的片段。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="946"/>
        <source>Pick one tokenizer file or folder, or a GPT-2 vocab .json together with its merges .txt (picked: %(names)s).</source>
        <translation>请选择一个分词器文件或文件夹，或者同时选择 GPT-2 的 vocab .json 和它的 merges .txt（已选：%(names)s）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="972"/>
        <source>, line %1</source>
        <extracomment>params shown in quotes, as core&apos;s English message shows them (repr)</extracomment>
        <translation> 第 %1 行</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="974"/>
        <source>, merge %1</source>
        <translation> 第 %1 个合并（从 0 数起）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="976"/>
        <source>, %1 entry %2</source>
        <translation> 的 %1 列表第 %2 项（从 0 数起）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="984"/>
        <source>killed by SIGKILL: out of memory, or killed by hand?</source>
        <translation>被 SIGKILL 杀死：内存不足，还是被手动结束了？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="985"/>
        <source>ended by SIGTERM: asked to stop (by hand, or by the system shutting down)</source>
        <translation>被 SIGTERM 结束：被要求停止（手动，或系统正在关机）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="988"/>
        <source>ended by SIGINT (Ctrl+C)</source>
        <translation>被 SIGINT 结束（Ctrl+C）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="989"/>
        <source>ended by SIGHUP: its terminal closed</source>
        <translation>被 SIGHUP 结束：它的终端已关闭</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="990"/>
        <source>crashed (SIGSEGV: a fault in native code)</source>
        <translation>崩溃了（SIGSEGV：本地代码出错）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="991"/>
        <source>crashed (SIGBUS: a file it had mapped shrank, or a memory fault)</source>
        <translation>崩溃了（SIGBUS：它映射的文件变小了，或内存出错）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="992"/>
        <source>aborted (SIGABRT)</source>
        <translation>中止了（SIGABRT）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="1001"/>
        <source>exit code unknown</source>
        <translation>退出码未知</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="1003"/>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="1007"/>
        <source>ended by signal %1</source>
        <translation>被信号 %1 结束</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="1008"/>
        <source>ended by %1</source>
        <translation>被 %1 结束</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/errors.py" line="1022"/>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>Evaluate</name>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="90"/>
        <source>{path} ({n} docs, seed {seed})</source>
        <extracomment>what it extends, when it is an extension: the base&apos;s TokenizerSpec, or a core Tokenizer whose training record says ``extends`` (an opened extended tokenizer); a file&apos;s record is read anyway &quot;current&quot; of an opened tokenizer: that core Tokenizer itself (its pattern, normalizer, post-processor or SentencePiece model are not in ``value``, which holds the training panel&apos;s pattern)</extracomment>
        <translation>{path}（{n} 篇文档，种子 {seed}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="181"/>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="182"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="183"/>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="184"/>
        <source>Docs</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="185"/>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="186"/>
        <source>Bytes/token</source>
        <translation>字节/词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="187"/>
        <source>Chars/token</source>
        <translation>字符/词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="188"/>
        <source>Tokens/doc</source>
        <translation>词元/文档</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="189"/>
        <source>p50</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="190"/>
        <source>p95</source>
        <translation>95 分位</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="191"/>
        <source>Vocab used</source>
        <translation>词表使用率</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="192"/>
        <source>Never used</source>
        <translation>从未使用</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="193"/>
        <source>1-byte tokens</source>
        <translation>单字节词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="194"/>
        <source>Byte fallback</source>
        <translation>字节回退</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="195"/>
        <source>MB/s (1 process)</source>
        <translation>MB/秒（单进程）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="196"/>
        <source>MB/s (all)</source>
        <translation>MB/秒（全部核心）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="197"/>
        <source>Pile (h)</source>
        <translation>Pile 耗时（小时）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/jobs/evaluate.py" line="240"/>
        <source>The text is too small to time (under 1 MB): start-up costs swamp the encoding, so no speed or Pile estimate is given. Evaluate on a larger text to measure them.</source>
        <extracomment>the columns that are measurements of time (not shown for a text too small to time)</extracomment>
        <translation>文本太小，无法计时（不到 1 MB）：启动开销盖过了编码本身，所以不给出速度和 Pile 估计。请在更大的文本上评估来测量它们。</translation>
    </message>
</context>
<context>
    <name>EvaluateView</name>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="128"/>
        <source>Add current</source>
        <extracomment>the tokenizers and texts of the run whose outcome (Done, Failed …) the bar shows</extracomment>
        <translation>添加当前分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="129"/>
        <source>Add file…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="130"/>
        <source>Add encoding…</source>
        <translation>添加已知分词器…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="132"/>
        <source>The tokenizer being trained, at its current step</source>
        <translation>正在训练的分词器（当前这一步）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="136"/>
        <source>Add text…</source>
        <translation>添加文本…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="138"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="151"/>
        <source>whole file</source>
        <translation>整个文件</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="152"/>
        <source>docs: </source>
        <translation>文档数：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="155"/>
        <source>seed: </source>
        <translation>种子：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="156"/>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="156"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="162"/>
        <source>CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="162"/>
        <source>JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="162"/>
        <source>Chart PNG…</source>
        <translation>图表 PNG…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="171"/>
        <source>Bytes per token</source>
        <translation>每个词元的字节数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="173"/>
        <source>Tokens per document</source>
        <translation>每篇文档的词元数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="66"/>
        <source>{name} is not available offline: tiktoken&apos;s cache has no copy of it. Download {url} and add that file with “Add file…”.</source>
        <translation>{name} 无法离线使用：tiktoken 的缓存里没有它的副本。请下载 {url}，再用“添加文件…”添加那个文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="88"/>
        <source>Cannot read {name}: {reason}</source>
        <translation>无法读取 {name}：{reason}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="140"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="141"/>
        <source>Remove the selected tokenizers and texts (Delete)</source>
        <translation>移除选中的分词器和文本（Delete 键）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="177"/>
        <source>Held-out text while training: bytes/token</source>
        <translation>训练中留出文本的压缩率：字节/词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="181"/>
        <source>bytes/token</source>
        <translation>字节/词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="182"/>
        <source>tokens per document</source>
        <translation>每篇文档的词元数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="183"/>
        <source>documents</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="184"/>
        <source>merges</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="192"/>
        <source>Merge tree</source>
        <translation>合并树</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="192"/>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="197"/>
        <source>&lt;b&gt;Tokenizers&lt;/b&gt;</source>
        <translation>&lt;b&gt;分词器&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="203"/>
        <source>&lt;b&gt;Texts&lt;/b&gt;</source>
        <translation>&lt;b&gt;文本&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="216"/>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="243"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="244"/>
        <source>Longest tokens</source>
        <translation>最长的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="253"/>
        <source>Extension</source>
        <translation>扩展</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="429"/>
        <source>Add a tokenizer with one of the three buttons above</source>
        <translation>请用上方三个按钮之一添加分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="249"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="250"/>
        <source>Tokens with the base</source>
        <translation>基础分词器的词元数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="251"/>
        <source>Tokens with the extension</source>
        <translation>扩展后的词元数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="252"/>
        <source>Gain (fewer tokens)</source>
        <translation>收益（减少的词元）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="260"/>
        <source>How many tokens each text takes with the tokenizer the extension started from and with the extension: the compression its new merges gained</source>
        <translation>每个文本用扩展所基于的分词器和用扩展后的分词器各需要多少词元：新合并带来的压缩收益</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="265"/>
        <source>Extension gain</source>
        <translation>扩展收益</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="305"/>
        <source>{name} @ {n} merges</source>
        <translation>{name} @ {n} 次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="306"/>
        <source>trained</source>
        <translation>训练中</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="377"/>
        <source>Tokenizer to evaluate</source>
        <translation>要评估的分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="389"/>
        <source>Known encoding</source>
        <translation>已知编码</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="390"/>
        <source>Encoding (read offline from tiktoken&apos;s cache):</source>
        <translation>编码（从 tiktoken 的缓存离线读取）：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="399"/>
        <source>Texts to evaluate on</source>
        <translation>用于评估的文本</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="427"/>
        <source>Add tokenizers and texts, then press Evaluate</source>
        <translation>添加分词器和文本，然后按“评估”</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="431"/>
        <source>Add a text to evaluate on: Add text…</source>
        <translation>请添加要评估的文本：“添加文本…”</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="432"/>
        <source>Press Evaluate to compare them on these texts</source>
        <translation>按“评估”在这些文本上比较它们</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="442"/>
        <source>Loading tokenizers …</source>
        <translation>正在加载分词器 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="455"/>
        <source>Encoding … %p%</source>
        <translation>正在编码 … %p%</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="469"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="471"/>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="474"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="481"/>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="519"/>
        <source>{saved} ({share})</source>
        <translation>{saved}（{share}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="548"/>
        <source>{n} B · id {id} · used {count:,}× — {text}</source>
        <translation>{n} 字节 · id {id} · 使用 {count:,} 次 — {text}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="618"/>
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="621"/>
        <source>Export JSON</source>
        <translation>导出 JSON</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/evaluate_view.py" line="625"/>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="30"/>
        <source>Export tokenizer</source>
        <translation>导出分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="33"/>
        <source>&lt;b&gt;Formats&lt;/b&gt;</source>
        <translation>&lt;b&gt;格式&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="50"/>
        <source>&lt;b&gt;Folder&lt;/b&gt; (created if needed; files there are replaced atomically)</source>
        <translation>&lt;b&gt;文件夹&lt;/b&gt;（需要时自动创建；其中的文件会被原子地替换）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="55"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="83"/>
        <source>Export to folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="92"/>
        <source>These formats cannot hold everything this tokenizer does, so the exported files would give different ids than it does:</source>
        <translation>这些格式无法完整保存这个分词器，导出的文件给出的 ID 会与它不同：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="105"/>
        <source>The native bpe.json keeps all of it.</source>
        <translation>原生 bpe.json 会完整保留这些内容。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="108"/>
        <source>Hugging Face tokenizer.json and the native bpe.json keep all of it.</source>
        <translation>Hugging Face tokenizer.json 和原生 bpe.json 会完整保留这些内容。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="119"/>
        <source>Export loses part of the tokenizer</source>
        <translation>导出会丢失分词器的一部分</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="125"/>
        <source>Export anyway</source>
        <translation>仍然导出</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="137"/>
        <source>Replace files?</source>
        <translation>替换文件？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="138"/>
        <source>The folder {0} already holds {1}, which BPE Explorer did not write there (another tokenizer&apos;s files, or changed since). Replace them?</source>
        <translation>文件夹 {0} 中已有 {1}，它们不是 BPE Explorer 写入的（属于另一个分词器，或之后被修改过）。要替换它们吗？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/export_dialog.py" line="147"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
</context>
<context>
    <name>ExtendActions</name>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="88"/>
        <source>Wait for the current task to finish (or cancel it) before continuing training.</source>
        <translation>请等待当前任务完成（或取消它）后再继续训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="102"/>
        <source>Import a tokenizer first (File → Import tokenizer…), then continue training from it.</source>
        <translation>请先导入一个分词器（文件 → 导入分词器…），再从它继续训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="110"/>
        <source>{0} is a SentencePiece-style (character-level) tokenizer: training cannot continue from it. Continue from a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json).</source>
        <translation>{0} 是 SentencePiece 风格（字符级）的分词器：不能从它继续训练。请从字节级的分词器继续（GPT-2、tokenizer.json、tiktoken、本应用的 bpe.json）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="122"/>
        <source>Reading {0} to continue training {1} …</source>
        <translation>正在读取 {0}，以继续训练 {1} …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="138"/>
        <source>the training engine stopped</source>
        <translation>训练引擎已停止</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="143"/>
        <source>Could not continue training on {0}; nothing changed.</source>
        <translation>无法在 {0} 上继续训练；没有任何改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="157"/>
        <source>Loading cancelled; nothing changed.</source>
        <translation>加载已取消；没有任何改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/extend.py" line="168"/>
        <source>Continuing {0} on {1} ({2} bytes, {3} pre-tokens, read in {4} s): Step and Train add merges after its {5} tokens; Undo and Reset never go below it.</source>
        <translation>在 {1} 上继续训练 {0}（{2} 字节，{3} 个预分词，读取用时 {4} 秒）：“单步”和“训练”在它的 {5} 个词元之后添加合并；“撤销”和“重置”不会低于它。</translation>
    </message>
</context>
<context>
    <name>ExtendDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="86"/>
        <source>Extend this tokenizer</source>
        <translation>扩展这个分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="96"/>
        <source>Keeps every token and id of the tokenizer in the app and learns more merges on a corpus, pre-tokenized and encoded as this tokenizer does it. New tokens take the ids after its last one.</source>
        <translation>保留应用中这个分词器的全部词元和 ID，并在一份语料上学习更多合并；语料按这个分词器的方式预分词和编码。新词元的 ID 排在它最后一个 ID 之后。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="103"/>
        <source>Choose corpus…</source>
        <translation>选择语料…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="105"/>
        <source>Corpus:</source>
        <translation>语料：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="110"/>
        <source>Final vocab size:</source>
        <translation>最终词表大小：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="113"/>
        <source>a folder (a new one is made)</source>
        <translation>文件夹（不存在时会新建）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="115"/>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="120"/>
        <source>Write to:</source>
        <translation>写入到：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="129"/>
        <source>Extend</source>
        <translation>扩展</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="131"/>
        <source>Open the extended tokenizer</source>
        <translation>打开扩展后的分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="135"/>
        <source>Continue step by step…</source>
        <translation>逐步继续…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="138"/>
        <source>Continue training from this tokenizer in the app, on the chosen corpus: step, undo and watch the new merges (File → Continue training from this tokenizer…)</source>
        <translation>在应用中用所选语料从这个分词器继续训练：单步、撤销并观察新的合并（文件 → 从这个分词器继续训练…）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="167"/>
        <source>This is a SentencePiece-style (character-level) tokenizer: it cannot be extended. Extend a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json).</source>
        <translation>这是 SentencePiece 风格（字符级）的分词器：不能扩展它。请扩展字节级的分词器（GPT-2、tokenizer.json、tiktoken、本应用的 bpe.json）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="194"/>
        <source>Corpus to learn the new merges on</source>
        <translation>用来学习新合并的语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="200"/>
        <source>Folder for the extended tokenizer</source>
        <translation>扩展后分词器的文件夹</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="225"/>
        <source>Choose a final vocab size above this tokenizer&apos;s {n} tokens.</source>
        <translation>请选择大于这个分词器 {n} 个词元的最终词表大小。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="238"/>
        <source>Learning new merges on {name} …</source>
        <translation>正在 {name} 上学习新的合并 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="247"/>
        <source>{merges} new merges, vocab size {size}. {name}: {before} tokens with the tokenizer, {after} with the extension ({gain} fewer).</source>
        <translation>新增 {merges} 次合并，词表大小 {size}。{name}：原分词器 {before} 个词元，扩展后 {after} 个（减少 {gain}）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="257"/>
        <source>Written: {files}</source>
        <translation>已写入：{files}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="259"/>
        <source>Not written (the format cannot hold this tokenizer): {formats}</source>
        <translation>未写入（该格式无法保存这个分词器）：{formats}</translation>
    </message>
</context>
<context>
    <name>FileActions</name>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="131"/>
        <source>Wait for the current task to finish (or cancel it) before importing.</source>
        <translation>请等待当前任务完成（或取消它）后再导入。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="140"/>
        <location filename="../../bpe_gui/actions/files.py" line="181"/>
        <source>Reading the tokenizer %1 …</source>
        <translation>正在读取分词器 %1 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="153"/>
        <source>Recovering the merges of %1 from its ranks …</source>
        <translation>正在根据 %1 的排位还原它的合并 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="173"/>
        <source>Wait for the current task to finish (or cancel it) before loading a tokenizer to compare with.</source>
        <translation>请先等待当前任务完成（或取消它），再载入用于对比的分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="192"/>
        <source>Recovering the merges of %1 stopped: the first %2 are shown.</source>
        <translation>已停止还原 %1 的合并：显示前 %2 次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="201"/>
        <source>Reading %1 cancelled; nothing changed.</source>
        <translation>已取消读取 %1；没有任何改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="209"/>
        <source>Could not read %1; nothing changed.</source>
        <translation>无法读取 %1；没有任何改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="224"/>
        <source>Comparing with %1.</source>
        <translation>正在与 %1 对比。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="234"/>
        <source>with its merge timeline</source>
        <translation>带合并时间线</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="236"/>
        <source>no merge counts in this format</source>
        <translation>此格式不含合并次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="239"/>
        <source>Imported {0}: {1} tokens, {2} merges ({3}).</source>
        <translation>已导入 {0}：{1} 个词元，{2} 次合并（{3}）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="270"/>
        <source>Wait for the current task to finish (or cancel it) before exporting.</source>
        <translation>请等待当前任务完成（或取消它）后再导出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="273"/>
        <source>Nothing to export yet: open a corpus or import a tokenizer first.</source>
        <translation>还没有可导出的内容：请先打开语料或导入分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="284"/>
        <source>Not written: tiktoken (a new merge makes a token the base already has, which a tiktoken file cannot hold: it would apply that merge at the old token&apos;s rank).</source>
        <translation>未写入：tiktoken（有一次新合并产生了基础分词器已有的词元，tiktoken 文件无法表示：它会按旧词元的排名应用这次合并）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="302"/>
        <source>Exported {0} file(s) to {1}: </source>
        <translation>已导出 {0} 个文件到 {1}：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="313"/>
        <source>The folder also holds {0} from before, not written now: they may be another tokenizer&apos;s.</source>
        <translation>该文件夹中还有之前留下的 {0}，这次没有写入：它们可能属于另一个分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/files.py" line="322"/>
        <source>Not written: {0}. These formats cannot hold this tokenizer (the other formats were written):</source>
        <translation>未写入：{0}。这些格式无法容纳此分词器（其他格式已写入）：</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <location filename="../../bpe_gui/model/files.py" line="15"/>
        <source>GPT-2 files (vocab.json + merges.txt)</source>
        <translation>GPT-2 文件（vocab.json + merges.txt）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/model/files.py" line="16"/>
        <source>Hugging Face tokenizer.json</source>
        <translation>Hugging Face tokenizer.json</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/model/files.py" line="17"/>
        <source>tiktoken (bpe.tiktoken)</source>
        <translation>tiktoken（bpe.tiktoken）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/model/files.py" line="18"/>
        <source>Native bpe.json (keeps the merge timeline)</source>
        <translation>本应用的 bpe.json（保留合并时间线）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/model/files.py" line="20"/>
        <source>Tokenizer files (*.json *.tiktoken *.model *.model.* *.txt);;All files (*)</source>
        <translation>分词器文件 (*.json *.tiktoken *.model *.model.* *.txt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>FilesWindow</name>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="37"/>
        <source>Open corpus</source>
        <translation>打开语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="39"/>
        <source>Text files (*.txt);;Counts files (*.parquet);;All files (*)</source>
        <translation>文本文件 (*.txt);;计数文件 (*.parquet);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="63"/>
        <source>Open a tokenizer?</source>
        <translation>打开分词器？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="64"/>
        <source>%1 looks like a tokenizer file, not a text to train on.</source>
        <translation>%1 看起来是分词器文件，而不是用来训练的文本。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="70"/>
        <source>Import it to see its merges and tokenize with it (File → Import tokenizer), or read its text as a corpus to train on.</source>
        <translation>可以导入它，查看它的合并并用它分词（文件 → 导入分词器），也可以把它的内容当作语料读入来训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="74"/>
        <source>Import tokenizer</source>
        <translation>导入分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="75"/>
        <source>Open as corpus</source>
        <translation>作为语料打开</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="84"/>
        <source>Import tokenizer (a GPT-2 vocab and merges file may be picked together)</source>
        <translation>导入分词器（可同时选择 GPT-2 的 vocab 和 merges 文件）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="93"/>
        <source>Compare with tokenizer</source>
        <translation>与分词器比较</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="167"/>
        <source>Not for this tokenizer: a SentencePiece-style model&apos;s pieces and scores do not fit these byte-level BPE files (its byte pieces repeat other tokens&apos; bytes).</source>
        <translation>不适用于这个分词器：SentencePiece 式模型的片段和分数无法放进这些字节级 BPE 文件（它的字节片段与其他词元的字节重复）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="180"/>
        <source>Not for this tokenizer: vocab.json holds each token once, and ids {0} and {1} are the same token {2} (the other formats keep both).</source>
        <translation>不适用于这个分词器：vocab.json 中每个词元只能出现一次，而 ID {0} 和 {1} 是同一个词元 {2}（其他格式会把两者都保留）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="202"/>
        <source>Sample corpus (bundled)</source>
        <translation>示例语料（内置）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/files.py" line="210"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="18"/>
        <source>BPE (byte-pair encoding)</source>
        <translation>BPE（字节对编码）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="19"/>
        <source>A way to build a tokenizer: start from single bytes and, again and again, join the pair of neighbouring tokens that occurs most often into a new token.</source>
        <translation>一种构建分词器的方法：从单个字节开始，一次又一次地把出现最频繁的相邻词元对合并成一个新词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="27"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="28"/>
        <source>A piece of text the model sees as one unit; each has a number, its id.</source>
        <translation>模型当作一个整体看待的一段文本；每个词元都有一个编号，即它的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="32"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="33"/>
        <source>All tokens with their ids: the 256 bytes, the special tokens, then one token per merge.</source>
        <translation>所有词元及其 ID：256 个字节、特殊标记，然后每次合并产生一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="40"/>
        <source>Byte pair</source>
        <translation>字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="41"/>
        <source>Two tokens standing next to each other. Their count is how often they stand together.</source>
        <translation>相邻的两个词元。它的次数就是这两个词元相邻出现的次数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="48"/>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="49"/>
        <source>Joining the most frequent pair into a new token. The list of merges, in order, is what training learns.</source>
        <translation>把最频繁的字节对合成一个新词元。训练学到的就是按顺序排列的合并列表。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="56"/>
        <source>Pre-token</source>
        <translation>预分词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="57"/>
        <source>A piece of text cut out by the pre-tokenizer regex before training, such as a word with its leading space. Merges never cross from one pre-token to the next.</source>
        <translation>训练前由预分词正则表达式切出的一段文本，例如带前导空格的一个单词。合并永远不会跨越两个预分词。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="65"/>
        <source>Special token</source>
        <translation>特殊标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="66"/>
        <source>A marker such as &lt;|endoftext|&gt; that is never split or merged and has its own id.</source>
        <translation>像 &lt;|endoftext|&gt; 这样的标记，永不拆分也不合并，有自己的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="72"/>
        <source>Tie rule</source>
        <translation>平局规则</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="73"/>
        <source>What decides when several pairs are equally frequent. Two rules:
• The lexicographically greatest pair of byte strings, compared as (bytes, bytes): the first tokens are compared first, byte by byte, the second tokens only when the first are equal (the CS336 assignment&apos;s rule).
   e.g. (“s”, “t”) beats (“e”, “s”), because “s” &gt; “e”;
   (“ab”, “c”) beats (“a”, “bc”), because “ab” &gt; “a”, although both join to “abc”.
• The pair seen first in the text (the lecture code: max over a dict keeps the first of equal counts).
   e.g. in “abcd” every pair occurs once; (“a”, “b”) is seen first, so it wins;
   in “cdab” it is (“c”, “d”).</source>
        <translation>几个字节对一样频繁时由它决定取哪一个。有两种规则：
• 取按 (bytes, bytes) 比较时字典序最大的字节串对：先逐字节比较两对的第一个词元，只有第一个相同时才比较第二个词元（CS336 作业的规则）。
   例：(“s”, “t”) 胜过 (“e”, “s”)，因为 “s” &gt; “e”；
   (“ab”, “c”) 胜过 (“a”, “bc”)，因为 “ab” &gt; “a”，尽管两者拼起来都是 “abc”。
• 取文本中最先出现的字节对（课堂代码：对字典取 max 时，次数相同则保留最先的）。
   例：在 “abcd” 中每个字节对都出现一次；(“a”, “b”) 最先出现，所以它胜出；
   在 “cdab” 中则是 (“c”, “d”)。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="108"/>
        <source>The position of a merge in the merge list, counted from 0: rank 0 is merge #1. Encoding applies merges lowest rank first; a tiktoken file stores the ranks.</source>
        <translation>一次合并在合并列表中的位置，从 0 数起：排位 0 就是合并编号 #1。编码时先应用排位最小的合并；tiktoken 文件保存的就是排位。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="89"/>
        <source>Incremental update</source>
        <translation>增量更新</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="90"/>
        <source>After a merge, only the words containing the pair are looked at again: their old pairs are subtracted and their new pairs added, instead of counting everything from scratch.</source>
        <translation>一次合并之后，只重新查看包含该字节对的单词：减去它们旧的字节对，加上新的字节对，而不是从头重新统计。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="98"/>
        <source>Merge number</source>
        <translation>合并编号</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="99"/>
        <source>Which merge it is, counted from 1: merge #1 is the first merge training made. The merges list and the timeline show it.</source>
        <translation>这是第几次合并，从 1 数起：#1 是训练做出的第一次合并。合并列表和时间线显示的就是它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="107"/>
        <source>Rank</source>
        <translation>排位</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="116"/>
        <source>UTF-8 bytes</source>
        <translation>UTF-8 字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="117"/>
        <source>Text is stored as bytes (0 to 255); an English letter is one byte, a Chinese character three.</source>
        <translation>文本以字节（0 到 255）存储；一个英文字母占一个字节，一个汉字占三个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="124"/>
        <source>Compression ratio</source>
        <translation>压缩率</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="125"/>
        <source>Bytes of text per token (bytes/token): how many bytes one token stands for on average. Higher means shorter sequences for the model.</source>
        <translation>每个词元对应的文本字节数（字节/词元）：平均一个词元代表多少字节。越高，模型看到的序列越短。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="133"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="134"/>
        <source>How many megabytes of text the tokenizer encodes per second (MB/s); it needs enough text to be timed well.</source>
        <translation>分词器每秒编码多少兆字节的文本（MB/s）；需要足够多的文本才能测准。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="142"/>
        <source>Byte fallback</source>
        <translation>字节回退</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="143"/>
        <source>Tokens that are a single byte 0x80 or above: a piece of a character outside ASCII that no merge joined into a whole character (我 = e6|88|91 as three tokens).</source>
        <translation>只有一个字节且该字节不小于 0x80 的词元：ASCII 以外字符的一部分，没有任何合并把它拼成完整的字符（例如 我 = e6|88|91 成了三个词元）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/glossary.py" line="174"/>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
</context>
<context>
    <name>ImportAsk</name>
    <message>
        <location filename="../../bpe_gui/dialogs/import_ask.py" line="72"/>
        <source>give each special token with its id, as TOKEN=ID</source>
        <translation>请为每个特殊标记写上它的 id，格式为 TOKEN=ID</translation>
    </message>
</context>
<context>
    <name>InspectDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="59"/>
        <source>Dead and odd tokens</source>
        <translation>无法到达与异常的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="67"/>
        <source>Tokens no text reaches, tokens no merges build, tokens that are not whole characters, special tokens and the longest ones, for the tokenizer in the app. Add text files to find the tokens they never use.</source>
        <translation>应用中这个分词器里：没有任何文本能得到的词元、合并规则构造不出的词元、不是完整字符的词元、特殊标记以及最长的词元。添加文本文件可找出这些文本从未使用的词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="75"/>
        <source>Inspect</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="77"/>
        <source>Add text file…</source>
        <translation>添加文本文件…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="83"/>
        <source>No text files: the Never used list is empty.</source>
        <translation>没有文本文件：“从未使用”列表为空。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="104"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="104"/>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="104"/>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="104"/>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="117"/>
        <source>Unreachable from text ({n})</source>
        <translation>文本无法到达（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="118"/>
        <source>Unreachable by merges ({n})</source>
        <translation>合并无法构造（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="119"/>
        <source>Partial UTF-8 ({n})</source>
        <translation>不完整的 UTF-8（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="120"/>
        <source>Special ({n})</source>
        <translation>特殊标记（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="121"/>
        <source>Longest ({n})</source>
        <translation>最长（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="122"/>
        <source>Never used ({n})</source>
        <translation>从未使用（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="123"/>
        <source>Added, not special ({n})</source>
        <translation>添加的词元，非特殊（{n}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="136"/>
        <source>Add text files</source>
        <translation>添加文本文件</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="144"/>
        <source>Text files: {names}</source>
        <translation>文本文件：{names}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="156"/>
        <source>Inspecting…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="171"/>
        <source>{vocab} tokens: {text} unreachable from their text, {merges} unreachable by merges, {partial} partial UTF-8, {special} special; the longest has {longest} bytes.</source>
        <translation>共 {vocab} 个词元：{text} 个无法由其文本得到，{merges} 个无法由合并构造，{partial} 个是不完整的 UTF-8，{special} 个特殊标记；最长的有 {longest} 个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="182"/>
        <source>Also {added} added tokens that are not special.</source>
        <translation>另有 {added} 个添加的词元不是特殊标记。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/inspect_dialog.py" line="186"/>
        <source>{name}: {tokens} tokens, {unused} tokens never used</source>
        <translation>{name}：{tokens} 个词元，{unused} 个词元从未使用</translation>
    </message>
</context>
<context>
    <name>Intro</name>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="32"/>
        <source>Corpus and Training (left)</source>
        <translation>语料和训练（左侧）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="33"/>
        <source>the text BPE learns from, and the buttons that learn merges: Step ▶ makes one, Step N several, Train to vocab size many, ◀ Undo takes the last one back.</source>
        <translation>BPE 从中学习的文本，以及学习合并的按钮：“单步 ▶”做一次合并，“走 N 步”做若干次，“训练到词表大小”一次做很多次，“◀ 撤销”撤回最近的一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="40"/>
        <source>Merge timeline</source>
        <translation>合并时间线</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="41"/>
        <source>one point per merge made: how often its pair occurred.</source>
        <translation>每做一次合并就多一个点：表示那个字节对出现了多少次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="44"/>
        <source>Pair counts</source>
        <translation>字节对次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="45"/>
        <source>every pair of neighbouring tokens and its count; the top row is the next merge.</source>
        <translation>每一对相邻词元及其出现次数；最上面一行就是下一次要合并的。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="50"/>
        <source>Tokenize</source>
        <translation>分词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="51"/>
        <source>type or paste any text and see it cut into coloured tokens by the merges learned so far.</source>
        <translation>输入或粘贴任意文本，看它被目前学到的合并切成一个个彩色的词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="57"/>
        <source>Merges &amp; vocab</source>
        <translation>合并与词表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="58"/>
        <source>the merges in the order they were learned, and every token with its id.</source>
        <translation>按学习顺序排列的合并，以及每个词元和它的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="61"/>
        <source>Selected merge · What happened</source>
        <translation>选中的合并 · 发生了什么</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="62"/>
        <source>the story of one merge in plain words: which pair, how often, what changed.</source>
        <translation>用大白话讲一次合并的来龙去脉：合并了哪个字节对、出现了多少次、改变了什么。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="66"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="71"/>
        <source>What the window shows</source>
        <translation>窗口里有什么</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="80"/>
        <source>What a tokenizer does</source>
        <translation>分词器是做什么的</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="82"/>
        <source>A language model does not read letters: it reads numbers. A tokenizer cuts text into pieces called tokens and gives each token a number, its id. “the cat” may become two tokens, “the” and “ cat” (with its space), so the model sees two ids.</source>
        <translation>语言模型读的不是文字，而是数字。分词器把文本切成一个个小片段，叫作词元（token），并给每个词元一个编号，即它的 ID。比如 “the cat” 可能被切成 “the” 和 “ cat”（带着前面的空格）两个词元，模型看到的就是两个 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="88"/>
        <source>BPE (byte-pair encoding) is how GPT-2, GPT-4, Llama and the tokenizer of Stanford&apos;s CS336 assignment 1 learn their tokens from a large text, the corpus.</source>
        <translation>BPE（字节对编码，byte-pair encoding）是 GPT-2、GPT-4、Llama 以及斯坦福 CS336 作业 1 里的分词器从大量文本（即语料）中学出词元的方法。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="96"/>
        <source>How BPE learns: bytes → pairs → merges</source>
        <translation>BPE 怎样学习：字节 → 字节对 → 合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="98"/>
        <source>Bytes. The corpus is stored as UTF-8 bytes, numbers from 0 to 255. Each of the 256 bytes is a first token, so any text can be written with them: an English letter is one byte, a Chinese character three.</source>
        <translation>字节。语料以 UTF-8 字节存储，每个字节是 0 到 255 之间的一个数。256 个字节各自就是最初的词元，所以任何文本都能用它们写出来：一个英文字母是一个字节，一个汉字是三个字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="104"/>
        <source>Pairs. Count how often each pair of neighbouring tokens occurs in the corpus, such as “t” followed by “h”.</source>
        <translation>字节对。统计语料中每一对相邻词元出现的次数，比如 “t” 后面紧跟着 “h”。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="109"/>
        <source>Merges. The most frequent pair becomes a new token (“t” + “h” → “th”), written everywhere it occurs. Count again and repeat: each repetition is one merge, and the ordered list of merges is what training learns. It stops at the vocab size you choose.</source>
        <translation>合并。出现最多的那一对变成一个新词元（“t” + “h” → “th”），并在它出现的每个地方替换掉原来的两个词元。然后重新统计、再重复：每重复一次就是一次合并，按顺序排好的合并列表就是训练学到的东西。达到你选定的词表大小时停止。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="120"/>
        <source>Before counting, the text is cut into pre-tokens, roughly words with their leading space, so a merge never joins the end of one word to the next. Encoding a new text applies the learned merges in the same order.</source>
        <translation>统计之前，文本会先被切成预分词（大致是带着前导空格的单词），所以合并不会把一个单词的结尾和下一个单词连在一起。对新文本编码时，按同样的顺序应用学到的合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="130"/>
        <source>What to click first</source>
        <translation>先点哪里</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="132"/>
        <source>Open the sample: the bundled sample corpus opens when the app starts (otherwise click the button below, or Recent → Sample corpus (bundled) in the Corpus box). Your own UTF-8 text file opens with Open….</source>
        <translation>打开示例：应用启动时会自动打开内置的示例语料。如果没有打开，点下面的按钮，或在“语料”框里选“最近 → 示例语料（内置）”。自己的 UTF-8 文本文件用“打开…”来打开。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="138"/>
        <source>Press Step ▶ (or the → key) a few times: each press makes one merge. Watch the top pair of Pair counts become a token, a point appear on the timeline and the text in Tokenize get fewer, longer tokens.</source>
        <translation>按几次“单步 ▶”（或 → 键）：每按一次做一次合并。看“字节对次数”最上面那一对变成一个词元、时间线上多出一个点、“分词”里的文本被切成更少也更长的词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="144"/>
        <source>Press Train to vocab size to learn many merges at once; ◀ Undo (or the ← key) takes them back one by one.</source>
        <translation>按“训练到词表大小”一次学很多个合并；“◀ 撤销”（或 ← 键）一个一个地撤回。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="154"/>
        <source>To see the algorithm itself run line by line on a tiny text, with its variables beside the code, open Learn mode below (also View → Learn BPE step by step). The Glossary in the Help menu explains each term.</source>
        <translation>想看算法本身在一小段文本上逐行运行、变量的值就列在代码旁边，请点下面的按钮打开学习模式（也可以用 视图 → 逐步学习 BPE）。帮助菜单里的“术语表”解释了每个术语。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="78"/>
        <location filename="../../bpe_gui/views/intro.py" line="175"/>
        <source>What is BPE?</source>
        <translation>什么是 BPE？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="181"/>
        <source>Step through the code in Learn mode ▶</source>
        <translation>在学习模式中逐行运行代码 ▶</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="193"/>
        <source>Open the sample corpus</source>
        <translation>打开示例语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/intro.py" line="196"/>
        <source>Train on the small text that comes with the app (Step ▶ or Train next)</source>
        <translation>用应用自带的小段文本来训练（接着按“单步 ▶”或“训练到词表大小”）</translation>
    </message>
</context>
<context>
    <name>JobDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/extend_dialog.py" line="80"/>
        <source>Cancelled; nothing was written.</source>
        <translation>已取消；没有写入任何文件。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/job_dialog.py" line="25"/>
        <source>Cancelled.</source>
        <extracomment>what the summary says when the job was cancelled (a dialog may say more, e.g. nothing written)</extracomment>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/job_dialog.py" line="32"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <location filename="../../bpe_gui/window/language.py" line="19"/>
        <source>The new language is used from the next start of BPE Explorer.</source>
        <translation>新语言将在 BPE Explorer 下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/language.py" line="20"/>
        <source>Restart now</source>
        <translation>立即重启</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/language.py" line="21"/>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
</context>
<context>
    <name>Learn</name>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="132"/>
        <source>The text becomes its UTF-8 bytes: %1 integers from 0 to 255. Each byte is a first token.</source>
        <translation>文本变成它的 UTF-8 字节：%1 个 0 到 255 之间的整数。每个字节就是最初的一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="162"/>
        <source>Start counting pairs from zero.</source>
        <translation>从零开始统计字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="166"/>
        <location filename="../../bpe_gui/text/learn.py" line="351"/>
        <source>No pair is left to merge: training stops here.</source>
        <translation>没有可合并的字节对了：训练到此结束。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="170"/>
        <source>zip gives the next neighbouring pair: (%1, %2).</source>
        <translation>zip 给出下一个相邻对：(%1, %2)。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="174"/>
        <source>Pair (%1, %2) has now been seen %3 time(s).</source>
        <translation>字节对 (%1, %2) 目前已出现 %3 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="179"/>
        <source>max picks %1, seen %2 time(s).</source>
        <translation>max 选出 %1，出现了 %2 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="210"/>
        <source>Its bytes are its two parts joined: %1 + %2 = %3.</source>
        <translation>它的字节是两部分连起来：%1 + %2 = %3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="219"/>
        <source>Every occurrence of the pair is replaced by %1: %2 replaced, the list shrinks from %3 to %4.</source>
        <translation>该字节对的每次出现都被替换为 %1：替换了 %2 处，列表从 %3 个缩短到 %4 个。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="307"/>
        <source>Word %1: each of its pairs counts as often as the word occurs: %2 time(s).</source>
        <translation>单词 %1：它的每个字节对都按这个单词出现的次数计数：%2 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="315"/>
        <source>pair_counts[%1] += %2: pair %1 has now been counted %3 time(s).</source>
        <translation>pair_counts[%1] += %2：字节对 %1 现在共计 %3 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="323"/>
        <source>The vocabulary starts with the 256 single bytes, ids 0 to 255; next_id is the id the next token will get.</source>
        <translation>词表从 256 个单字节开始，ID 为 0 到 255；next_id 是下一个词元将得到的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="332"/>
        <source>The special token %1 gets id %2; next_id is now %3. Merged tokens come after the special tokens.</source>
        <translation>特殊标记 %1 得到 ID %2；next_id 现在是 %3。合并得到的词元排在特殊标记之后。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="360"/>
        <source>Tied with %1: the tie rule takes the greatest pair compared as (bytes, bytes): the first tokens&apos; bytes are compared first, the second tokens&apos; only when the first are equal. Here %2 is the greatest.</source>
        <translation>与 %1 次数相同：平局规则取按 (bytes, bytes) 比较时最大的字节对：先比较两对中第一个词元的字节，只有第一个相同时才比较第二个词元的字节。这里 %2 最大。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="374"/>
        <source>Merge number %1 is recorded (its rank is %2: ranks count from 0); new token %3 gets id %4.</source>
        <translation>记下第 %1 次合并（合并编号 %1，排位 %2：排位从 0 数起）；新词元 %3 得到 ID %4。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="386"/>
        <source>next_id moves on to %1 for the next merge.</source>
        <translation>next_id 前进到 %1，留给下一次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="410"/>
        <source>The pair stands %1 times in this word but only %2 are merged: the occurrences overlap, and merging goes left to right, so a token already joined cannot join again.</source>
        <translation>这个字节对在该单词中出现 %1 次，但只合并了 %2 处：这些出现相互重叠，而合并从左到右进行，已经被合并用掉的词元不能再参与下一次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="438"/>
        <source>Done: a vocabulary of %1 tokens = 256 bytes + %2 special token(s) + %3 merge(s).</source>
        <translation>完成：词表共 %1 个词元 = 256 个字节 + %2 个特殊标记 + %3 次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="453"/>
        <source>Special tokens are cut out first; each one becomes its own id: %1.</source>
        <translation>先切出特殊标记；每个特殊标记直接变成它自己的 ID：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="265"/>
        <location filename="../../bpe_gui/text/learn.py" line="401"/>
        <location filename="../../bpe_gui/text/learn.py" line="427"/>
        <location filename="../../bpe_gui/text/learn.py" line="454"/>
        <location filename="../../bpe_gui/text/learn.py" line="569"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="96"/>
        <source>A character outside ASCII is several bytes, so several first tokens: %1.</source>
        <translation>ASCII 以外的字符占多个字节，因此一开始是多个词元：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="107"/>
        <source>In bytes: %1.</source>
        <translation>按字节：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="114"/>
        <source>GPT-2&apos;s pattern keeps a run of letters together and Chinese characters count as letters: a whole Chinese clause without spaces or punctuation is one pre-token.</source>
        <translation>GPT-2 的正则把连续的字母放在一起，而汉字算作字母：一整句没有空格或标点的中文就是一个预分词。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="142"/>
        <source>merges starts empty: it will map each merged pair to the id of its new token.</source>
        <translation>merges 一开始为空：它将把每个被合并的字节对映射到新词元的 ID。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="146"/>
        <source>The vocabulary starts with the 256 single bytes: ids 0 to 255. Each merge adds one token, with the next id: 256, 257, …</source>
        <translation>词表从 256 个单字节开始：ID 为 0 到 255。每次合并添加一个词元，依次取下一个 ID：256、257、…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="155"/>
        <location filename="../../bpe_gui/text/learn.py" line="344"/>
        <source>Merge number %1 begins (step = %2: steps count from 0).</source>
        <translation>第 %1 次合并开始（step = %2：step 从 0 数起）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="181"/>
        <source>As text: %1 + %2.</source>
        <translation>对应的文本：%1 + %2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="184"/>
        <source>Tied with %1: max returns the first of the tied pairs it meets, and counts lists pairs in the order they were first seen, so the pair seen first in the text wins.</source>
        <translation>与 %1 次数相同：max 返回它遇到的第一个并列字节对，而 counts 按字节对首次出现的顺序排列，所以文本中最先出现的字节对胜出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="195"/>
        <source>The new token gets the next free id: 256 + step = %1.</source>
        <translation>新词元得到下一个空闲 ID：256 + step = %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="200"/>
        <source>merges records the rule: pair %1 → %2. Encoding will replay these rules in this order.</source>
        <translation>merges 记下这条规则：字节对 %1 → %2。编码时会按这个顺序重放这些规则。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="230"/>
        <source>The pair was counted %1 times but replaced only %2 times: its occurrences overlap (in 97 97 97 both pairs share the middle 97), and merge goes left to right, so a token already used by one replacement cannot start the next.</source>
        <translation>这个字节对计数为 %1 次，但只替换了 %2 次：它的出现相互重叠（在 97 97 97 中两个字节对共用中间的 97），而 merge 从左到右进行，已被一次替换用掉的词元不能再开始下一次替换。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="245"/>
        <source>Done: %1 merge(s) learned, a vocabulary of %2 tokens. The %3 bytes of the text are now %4 tokens.</source>
        <translation>完成：学到 %1 次合并，词表共 %2 个词元。文本的 %3 个字节现在是 %4 个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="255"/>
        <location filename="../../bpe_gui/text/learn.py" line="446"/>
        <source>Merges in order: %1.</source>
        <translation>按顺序的合并：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="262"/>
        <source>The text is cut at the special tokens %1 into %2 piece(s); no merge crosses them.</source>
        <translation>文本在特殊标记 %1 处被切成 %2 段；任何合并都不会跨越它们。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="271"/>
        <source>Next piece: %1.</source>
        <translation>下一段：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="276"/>
        <source>PAT does not match %1: text no match covers is kept as a pre-token of its own, so no text is dropped (a plain split on whitespace, as in the handout, drops it).</source>
        <translation>PAT 不匹配 %1：没有被任何匹配覆盖的文本单独作为一个预分词保留，因此不会丢掉任何文本（像讲义那样简单地按空白切分则会丢掉它）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="289"/>
        <location filename="../../bpe_gui/text/learn.py" line="470"/>
        <source>No pattern: the whole piece %1 is one pre-token.</source>
        <translation>不做预分词：整段 %1 就是一个预分词。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="291"/>
        <location filename="../../bpe_gui/text/learn.py" line="472"/>
        <source>The regex finds the pre-token %1.</source>
        <translation>正则表达式找到预分词 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="298"/>
        <source>Pre-token %1 has been seen %2 time(s); merges never cross pre-token boundaries.</source>
        <translation>预分词 %1 已出现 %2 次；合并永远不会跨越预分词的边界。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="543"/>
        <source>Encoding the two pieces %1 and %2 separately and joining the ids gives the same ids here: no cut of this text splits a pre-token whose parts would merge.</source>
        <translation>把 %1 和 %2 两段分别编码再拼接 ID，在这里结果相同：这段文本的任何切分都不会切开一个其中部分会被合并的预分词。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="552"/>
        <source>The naive way, encoding the pieces %1 and %2 separately and joining the ids, gives different ids (see naive): the cut splits a pre-token, and its two halves are merged on their own. An encode_iterable that encodes each chunk separately goes wrong here.</source>
        <translation>朴素做法，把 %1 和 %2 两段分别编码再拼接 ID，得到的 ID 不同（见 naive）：切点切开了一个预分词，它的两半被各自合并。逐块单独编码的 encode_iterable 就会在这里出错。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="566"/>
        <source>Done: the %1 bytes of the text are %2 id(s): %3.</source>
        <translation>完成：文本的 %1 个字节编码为 %2 个 ID：%3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="356"/>
        <source>The most frequent pair is %1 (%2 time(s)).</source>
        <translation>最频繁的字节对是 %1（%2 次）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="391"/>
        <source>Word %1 (count %2) contains the pair: only such words change.</source>
        <translation>单词 %1（次数 %2）包含该字节对：只有这样的单词会改变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="399"/>
        <source>Its old pairs are taken away (−%1 each): %2.</source>
        <translation>减去它旧的字节对（每个 −%1）：%2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="406"/>
        <source>Merged: %1 → %2.</source>
        <translation>合并后：%1 → %2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="423"/>
        <source>Its new pairs are added (+%1 each): %2. All other pair counts stay as they were.</source>
        <translation>加上它新的字节对（每个 +%1）：%2。其他字节对的次数保持不变。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="432"/>
        <source>The word is stored in its merged form.</source>
        <translation>这个单词以合并后的形式保存。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="459"/>
        <source>%1 is a special token: it is not split or merged.</source>
        <translation>%1 是特殊标记：不拆分，也不合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="463"/>
        <source>Its id is %1.</source>
        <translation>它的 ID 是 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="477"/>
        <source>The pre-token starts as %1 single byte(s).</source>
        <translation>这个预分词最初是 %1 个单字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="507"/>
        <source>No adjacent pair is in the merge list: the pre-token ends as %1 token(s).</source>
        <translation>没有相邻字节对在合并列表中：剩下 %1 个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="516"/>
        <location filename="../../bpe_gui/text/learn.py" line="517"/>
        <source>Each part is looked up in the vocabulary: %1.</source>
        <translation>在词表中查出每一部分的 ID：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="522"/>
        <source>encode_iterable fed the text in two pieces cut at character %1 gives the same ids: %2.</source>
        <translation>把文本在第 %1 个字符处切成两段喂给 encode_iterable，得到的 ID 是否相同：%2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="122"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="122"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="483"/>
        <source>Of its adjacent pairs, %1 has the lowest rank (%2, counted from 0: merge number %3): it was learned earliest, so it is merged first.</source>
        <translation>在它的相邻字节对中，%1 的排位最小（排位 %2，从 0 数起；即合并编号 %3）：它最早学到，所以最先合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="497"/>
        <source>Every occurrence of the pair in the pre-token becomes the token %1 (%2 replaced).</source>
        <translation>预分词中这个字节对的每一处出现都变成词元 %1（替换了 %2 处）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/learn.py" line="531"/>
        <source>It only encodes up to the last place no pre-token or special token can cross, and keeps the rest until more text arrives.</source>
        <translation>它只编码到最后一个预分词和特殊标记都无法跨越的位置，其余部分留到更多文本到来时再处理。</translation>
    </message>
</context>
<context>
    <name>LearnView</name>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="75"/>
        <source>1. The lecture algorithm (raw bytes)</source>
        <extracomment>the example of the CS336 assignment handout (its BPE training example) its merges with whitespace pre-tokenization, as the handout lists them the pre-tokenizer of each walk-through when it is picked (the lecture algorithm has none)</extracomment>
        <translation>1. 课堂算法（原始字节）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="76"/>
        <source>2. The CS336 trainer</source>
        <translation>2. CS336 训练器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="77"/>
        <source>3. Encoding a text</source>
        <translation>3. 编码一段文本</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="80"/>
        <source>Which algorithm to walk through</source>
        <translation>选择要逐步演示的算法</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="83"/>
        <source>The small text the algorithm runs on; edit it and press Enter</source>
        <translation>算法所处理的短文本；修改后按回车</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="86"/>
        <source>Special tokens, separated by spaces (never split or merged)</source>
        <translation>特殊标记，用空格分隔（永不拆分或合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="98"/>
        <source>How many merges to learn</source>
        <translation>要学习多少次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="103"/>
        <source>GPT-2 regex</source>
        <translation>GPT-2 正则</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="104"/>
        <source>Whitespace (\S+)</source>
        <translation>按空白切分（\S+）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="105"/>
        <source>None (whole piece)</source>
        <translation>不切分（整段）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="110"/>
        <source>How the text is cut into pre-tokens before counting: GPT-2&apos;s regex (a word keeps its leading space, so “low” and “ low” differ), runs of non-space characters (\S+), or not at all</source>
        <translation>计数之前如何把文本切成预分词：GPT-2 的正则（单词带着前面的空格，所以 “low” 和 “ low” 不同）、连续的非空白字符（\S+），或者不切分</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="117"/>
        <source>Text:</source>
        <translation>文本：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="120"/>
        <source>Special tokens:</source>
        <translation>特殊标记：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="123"/>
        <source>Pre-tokens:</source>
        <translation>预分词：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="126"/>
        <source>Merges:</source>
        <translation>合并次数：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="131"/>
        <source>◀ Back</source>
        <translation>◀ 后退</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="132"/>
        <source>Step ▶</source>
        <translation>单步 ▶</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="133"/>
        <location filename="../../bpe_gui/views/learn_view.py" line="265"/>
        <location filename="../../bpe_gui/views/learn_view.py" line="327"/>
        <location filename="../../bpe_gui/views/learn_view.py" line="337"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="223"/>
        <source>The lecture&apos;s algorithm: the whole text as raw bytes (no special tokens, no pre-tokenization), ids instead of bytes, and ties go to the pair seen first.</source>
        <translation>课程讲义中的算法：整段文本按原始字节处理（没有特殊标记，不做预分词），用 ID 代替字节，次数相同时取最先出现的字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="130"/>
        <source>« Start</source>
        <translation>« 开头</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="134"/>
        <source>End »</source>
        <translation>结尾 »</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="140"/>
        <source>Run the next line (Right arrow)</source>
        <translation>执行下一行（右方向键）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="141"/>
        <source>Go back one line (Left arrow)</source>
        <translation>后退一行（左方向键）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="154"/>
        <source>The algorithm; the highlighted line is the one just run</source>
        <translation>算法代码；高亮的是刚刚执行的那一行</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="156"/>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="156"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="159"/>
        <source>A variable of the code at this line</source>
        <translation>代码在这一行时的变量</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="160"/>
        <source>Its value right after the highlighted line ran</source>
        <translation>高亮行执行之后它的值</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="230"/>
        <source>The CS336 handout&apos;s example. With whitespace pre-tokenization it gives the handout&apos;s merges: %1.</source>
        <translation>CS336 作业讲义中的例子。按空白预分词时，它得到与讲义相同的合并：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="235"/>
        <source>The CS336 handout&apos;s example with GPT-2&apos;s regex: “low” and “ low” (with its space) are different pre-tokens, so the counts and merges differ from the handout&apos;s, which splits on whitespace.</source>
        <translation>用 GPT-2 正则处理 CS336 作业讲义的例子：“low” 和（带空格的）“ low” 是不同的预分词，所以计数和合并与讲义（按空白切分）不同。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="240"/>
        <source>No pre-tokenization: merges may cross spaces (only special tokens cut the text).</source>
        <translation>不做预分词：合并可以跨过空格（只有特殊标记会切开文本）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="300"/>
        <source>Line %1 of the code · step %2 / %3</source>
        <translation>代码第 %1 行 · 第 %2 / %3 步</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="307"/>
        <source>the text is long: later steps are not shown</source>
        <translation>文本较长：后面的步骤未显示</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="332"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/learn_view.py" line="384"/>
        <source>Learn BPE — step by step</source>
        <translation>学习 BPE——逐步演示</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="238"/>
        <source>Selected merge</source>
        <translation>选中的合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="239"/>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="277"/>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="310"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="311"/>
        <source>&amp;Open corpus…</source>
        <translation>打开语料(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="312"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="314"/>
        <source>&amp;Import tokenizer…</source>
        <translation>导入分词器(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="318"/>
        <source>Explore a tokenizer trained elsewhere (GPT-2, tokenizer.json, tiktoken, native)</source>
        <translation>查看在别处训练的分词器（GPT-2、tokenizer.json、tiktoken、本应用格式）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="324"/>
        <source>Continue &amp;training from this tokenizer…</source>
        <translation>从这个分词器继续训练(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="321"/>
        <source>Pick a corpus and learn new merges on top of this tokenizer, step by step: its tokens and ids stay</source>
        <translation>选择一份语料，在这个分词器之上逐步学习新的合并：它的词元和 ID 保持不变</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="331"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="333"/>
        <source>&amp;Compare with tokenizer…</source>
        <translation>与分词器比较(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="336"/>
        <source>&amp;Vocabulary overlap…</source>
        <translation>词表重叠(&amp;V)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="340"/>
        <source>Tokens shared with the compared tokenizer, tokens only in each, where the merges part</source>
        <translation>与所比较的分词器共有的词元、各自独有的词元，以及合并列表开始不同的位置</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="343"/>
        <source>E&amp;xtend this tokenizer…</source>
        <translation>扩展这个分词器(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="347"/>
        <source>Keep every token and id of this tokenizer and learn more merges on a corpus</source>
        <translation>保留这个分词器的全部词元和 ID，在一份语料上学习更多合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="351"/>
        <source>&amp;Save session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="355"/>
        <source>Save the corpus, settings, merges and text to reopen later</source>
        <translation>保存语料、设置、合并和文本，以便之后重新打开</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="361"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="362"/>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="363"/>
        <source>&amp;Step</source>
        <translation>单步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="365"/>
        <source>Step &amp;N</source>
        <translation>走 N 步(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="367"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="369"/>
        <source>&amp;Train to vocab size</source>
        <translation>训练到词表大小(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="371"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="373"/>
        <source>&amp;Evaluate tokenizers…</source>
        <translation>评估分词器(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="375"/>
        <source>&amp;Evaluate</source>
        <translation>评估(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="378"/>
        <source>&amp;Dead and odd tokens…</source>
        <translation>无法到达与异常的词元(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="382"/>
        <source>Tokens no text reaches, no merges build, partial characters, never used</source>
        <translation>没有文本能得到、合并构造不出、不完整字符、从未使用的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="386"/>
        <source>&amp;Rewind to the selected merge</source>
        <translation>回退到所选的合并(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="390"/>
        <source>Undo every merge after the selected one</source>
        <translation>撤销所选合并之后的所有合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="393"/>
        <source>R&amp;eset (0 merges)</source>
        <translation>重置（0 次合并）(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="394"/>
        <source>Undo all merges; the corpus stays loaded</source>
        <translation>撤销全部合并；语料保持加载</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="397"/>
        <source>&amp;Audit a merge list…</source>
        <translation>审查合并列表(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="401"/>
        <source>Find where a merge list first differs from training on this corpus, and why</source>
        <translation>找出一份合并列表从哪里开始与在此语料上的训练不同，以及原因</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="403"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="405"/>
        <source>&amp;Messages</source>
        <translation>消息(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="409"/>
        <source>Every status and error message, in full</source>
        <translation>所有状态和错误消息的完整内容</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="412"/>
        <source>&amp;Learn BPE step by step</source>
        <translation>逐步学习 BPE(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="420"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="421"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="423"/>
        <source>What is &amp;BPE?</source>
        <translation>什么是 BPE(&amp;B)？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="427"/>
        <source>What a tokenizer is and how BPE learns, in plain words; then Learn mode</source>
        <translation>用大白话讲什么是分词器、BPE 怎样学习；然后进入学习模式</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="429"/>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="430"/>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="478"/>
        <source>R&amp;eset (to the base tokenizer)</source>
        <translation>重置（回到基础分词器）(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="480"/>
        <source>Undo all new merges: back to the base tokenizer; the corpus stays loaded</source>
        <translation>撤销全部新增合并：回到基础分词器；语料保持加载</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="498"/>
        <source>Not for a SentencePiece-style (character-level) tokenizer: training can continue only from a byte-level one (GPT-2, tokenizer.json, tiktoken, native bpe.json)</source>
        <translation>不适用于 SentencePiece 风格（字符级）的分词器：只能从字节级的分词器继续训练（GPT-2、tokenizer.json、tiktoken、本应用的 bpe.json）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/window/main_window.py" line="534"/>
        <source>%1 base merges + %n new</source>
        <translation>
            <numerusform>%1 次基础合并 + %n 次新合并</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/window/main_window.py" line="536"/>
        <source>%n merge(s)</source>
        <translation>
            <numerusform>%n 次合并</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="537"/>
        <source>vocab %1 · %2 </source>
        <translation>词表 %1 · %2 </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/window/main_window.py" line="551"/>
        <source>extension of %1 with %n new merge(s) on %2</source>
        <translation>
            <numerusform>%1 的扩展，在 %2 上有 %n 次新合并</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="629"/>
        <source>Rewind to a merge</source>
        <translation>回退到某次合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="629"/>
        <source>right-click it in the timeline or the merges list</source>
        <translation>在时间线或合并列表中右键点击它</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="630"/>
        <source>Jump to a token id</source>
        <translation>跳转到某个词元 id</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="630"/>
        <source>type #1234 in the vocab search box</source>
        <translation>在词表搜索框中输入 #1234</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="662"/>
        <source>&lt;b&gt;BPE Explorer&lt;/b&gt; {0}&lt;br&gt;Train, step through, visualise and export byte-level BPE tokenizers.&lt;br&gt;&lt;br&gt;Step: → or Space · Undo: ← or Ctrl+Z · Train: Ctrl+T · Cancel: Esc</source>
        <translation>&lt;b&gt;BPE Explorer&lt;/b&gt; {0}&lt;br&gt;训练、逐步查看、可视化并导出字节级 BPE 分词器。&lt;br&gt;&lt;br&gt;单步：→ 或空格 · 撤销：← 或 Ctrl+Z · 训练：Ctrl+T · 取消：Esc</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="358"/>
        <source>Open sessio&amp;n…</source>
        <translation>打开会话(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="414"/>
        <source>Lan&amp;guage</source>
        <translation>语言(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="660"/>
        <source>About BPE Explorer</source>
        <translation>关于 BPE Explorer</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/main_window.py" line="735"/>
        <source>Stopping the background task before closing …</source>
        <translation>关闭前正在停止后台任务 …</translation>
    </message>
</context>
<context>
    <name>MessageLog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="27"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="33"/>
        <source>No messages yet.</source>
        <translation>还没有消息。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="36"/>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="51"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>PairTableModel</name>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="56"/>
        <source>Pair</source>
        <translation>字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="57"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="59"/>
        <source>Move</source>
        <translation>升降</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="62"/>
        <source>Place in the table: 1 is the pair the next step merges</source>
        <translation>表中名次：1 是下一步要合并的字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="63"/>
        <source>Two neighbouring tokens (shown with visible spaces); the tooltip shows their bytes</source>
        <translation>两个相邻的词元（空格以可见符号显示）；提示框中显示它们的字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="67"/>
        <source>How often the two tokens stand side by side in the corpus (each pre-token counted as often as it occurs)</source>
        <translation>这两个词元在语料中相邻出现的次数（每个预分词按其出现次数计）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="72"/>
        <source>Change of the count since the last step: a merge takes counts from the pairs next to it and creates new pairs</source>
        <translation>与上一步相比次数的变化：一次合并会减少相邻字节对的次数，并产生新的字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="77"/>
        <source>How many places the pair moved up (▲) or down (▼) in the table since the last step</source>
        <translation>与上一步相比，该字节对在表中上升（▲）或下降（▼）了几名</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="85"/>
        <source>What the merge shown made of this count: the merged pair loses all its occurrences, its neighbours lose some, and pairs with the new token appear</source>
        <translation>所显示的这次合并对该次数的改变：被合并的字节对失去全部出现次数，相邻的字节对减少一些，并出现含新词元的字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="90"/>
        <source>Places move from step to step: shown for the table now only</source>
        <translation>名次的升降是相邻两步之间的比较：只在当前的表中显示</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="127"/>
        <source>new</source>
        <translation>新</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="229"/>
        <source>bytes: {0} | {1}</source>
        <translation>字节：{0} | {1}</translation>
    </message>
</context>
<context>
    <name>PairsView</name>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="358"/>
        <source>&lt;b&gt;Pair counts&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— top 100, live&lt;/span&gt;</source>
        <translation>&lt;b&gt;字节对次数&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— 前 100 名，实时&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="268"/>
        <source>Filter the top 100 pairs (text or hex) …</source>
        <translation>筛选前 100 名字节对（文本或十六进制）…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="260"/>
        <source>Back to the session now: the pair counts after the latest merge, and no merge selected</source>
        <translation>回到当前：显示最近一次合并之后的字节对次数，并取消对合并的选择</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="363"/>
        <source>&lt;b&gt;Pair counts&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— matching: {0} of the top {1}&lt;/span&gt;</source>
        <translation>&lt;b&gt;字节对次数&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— 前 {1} 名中有 {0} 个匹配&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="368"/>
        <source>The filter searches the most frequent pairs shown in this table, not every pair of the corpus.</source>
        <translation>筛选只搜索本表列出的最高频字节对，而不是语料中的全部字节对。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="519"/>
        <source>&lt;i&gt;Training … the table follows the run.&lt;/i&gt;</source>
        <translation>&lt;i&gt;训练中 … 表格随训练更新。&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="522"/>
        <source>&lt;i&gt;No corpus is open. Open a corpus (File → Open corpus…) to see pair counts.&lt;/i&gt;</source>
        <translation>&lt;i&gt;尚未打开语料。打开语料（文件 → 打开语料…）即可查看字节对次数。&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="525"/>
        <source>&lt;i&gt;Imported tokenizer: no corpus, so no pair counts.&lt;/i&gt;</source>
        <translation>&lt;i&gt;导入的分词器：没有语料，因此没有字节对次数。&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="528"/>
        <source>&lt;b&gt;No pair left to merge.&lt;/b&gt; Every pre-token is a single token.</source>
        <translation>&lt;b&gt;没有可合并的字节对了。&lt;/b&gt;每个预分词都已是单个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="500"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="533"/>
        <source>the most frequent pair</source>
        <translation>最频繁的字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="257"/>
        <source>Back to now</source>
        <translation>回到当前</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="343"/>
        <source>&lt;b&gt;Pair counts before merge #{0}&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— matching: {1} of the top {2}&lt;/span&gt;</source>
        <translation>&lt;b&gt;合并 #{0} 之前的字节对次数&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— 前 {2} 名中有 {1} 个匹配&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="347"/>
        <source>&lt;b&gt;Pair counts before merge #{0}&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— now at merge #{1}&lt;/span&gt;</source>
        <translation>&lt;b&gt;合并 #{0} 之前的字节对次数&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— 当前在合并 #{1}&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="352"/>
        <source>The table merge #{0} was chosen from: the counts then, its pair at the top. Δ is what merge #{0} changed. Back to now shows the counts after merge #{1}.</source>
        <translation>合并 #{0} 当时据以选择的表：当时的次数，它的字节对排在第一。Δ 是合并 #{0} 带来的变化。“回到当前”显示合并 #{1} 之后的次数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="484"/>
        <source>this tokenizer was opened without the word counts of its corpus, and only training keeps the history of pair counts</source>
        <translation>这个分词器打开时没有其语料的单词计数，而只有训练才会保留字节对次数的历史</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="489"/>
        <source>it is a merge of the base tokenizer, made elsewhere: only the merges trained here have their counts</source>
        <translation>这是基础分词器的合并，在别处完成：只有在这里训练的合并才有次数记录</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="493"/>
        <source>this training kept no history of pair counts</source>
        <translation>这次训练没有保留字节对次数的历史</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="494"/>
        <source>&lt;b&gt;The pair counts before merge #{0} are not known:&lt;/b&gt; {1}.</source>
        <translation>&lt;b&gt;合并 #{0} 之前的字节对次数未知：&lt;/b&gt;{1}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="496"/>
        <source>&lt;b&gt;No pair was left before merge #{0}.&lt;/b&gt;</source>
        <translation>&lt;b&gt;合并 #{0} 之前已没有可合并的字节对。&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="503"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="537"/>
        <source>the lexicographically greatest (bytes, bytes) pair wins</source>
        <translation>字典序最大的 (bytes, bytes) 字节对胜出</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="505"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="539"/>
        <source>the pair seen first in the corpus wins</source>
        <translation>语料中最先出现的字节对胜出</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="507"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="541"/>
        <source>other pair</source>
        <translation>个其他字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="507"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="541"/>
        <source>other pairs</source>
        <translation>个其他字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="508"/>
        <location filename="../../bpe_gui/views/pairs_view.py" line="542"/>
        <source>tied with {0}{1} {2} at this count; {3}</source>
        <translation>与 {0}{1} {2}次数相同；{3}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="510"/>
        <source>Merge #{0} took the top pair: &lt;code&gt;{1}&lt;/code&gt; + &lt;code&gt;{2}&lt;/code&gt; → &lt;code&gt;{3}&lt;/code&gt; ({4}×) — {5}.&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;Δ: what merge #{0} changed in each count.&lt;/span&gt;</source>
        <translation>合并 #{0} 选了排在第一的字节对：&lt;code&gt;{1}&lt;/code&gt; + &lt;code&gt;{2}&lt;/code&gt; → &lt;code&gt;{3}&lt;/code&gt;（{4} 次）— {5}。&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;Δ：合并 #{0} 给每个次数带来的变化。&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="544"/>
        <source>Next merge: &lt;code&gt;{0}&lt;/code&gt; + &lt;code&gt;{1}&lt;/code&gt; → &lt;code&gt;{2}&lt;/code&gt; ({3}×) — {4}.</source>
        <translation>下一次合并：&lt;code&gt;{0}&lt;/code&gt; + &lt;code&gt;{1}&lt;/code&gt; → &lt;code&gt;{2}&lt;/code&gt;（{3} 次）— {4}。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="549"/>
        <source>won a tie of {0} pairs at {1}</source>
        <translation>在 {0} 个次数同为 {1} 的字节对中胜出</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="551"/>
        <source>most frequent ({0}×)</source>
        <translation>最频繁（{0} 次）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/pairs_view.py" line="553"/>
        <source>&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;Last merge: &lt;code&gt;{0}&lt;/code&gt; — {1}&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:#667&apos;&gt;上一次合并：&lt;code&gt;{0}&lt;/code&gt; — {1}&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="18"/>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="19"/>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>QShortcut</name>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="20"/>
        <source>Right</source>
        <translation>右方向键</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="21"/>
        <source>Left</source>
        <translation>左方向键</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="22"/>
        <source>Up</source>
        <translation>上方向键</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/qt_strings.py" line="23"/>
        <source>Down</source>
        <translation>下方向键</translation>
    </message>
</context>
<context>
    <name>RunSummary</name>
    <message>
        <location filename="../../bpe_gui/text/summary.py" line="34"/>
        <source>Cancelled after %n merge(s); they are kept (vocab size %1). Undo steps back one merge at a time, Train → Rewind many at once.</source>
        <translation>已在 %n 次合并后取消；这些合并保留（词表大小 %1）。“撤销”一次退回一次合并，“训练 → 回退”可一次退回多次。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/text/summary.py" line="42"/>
        <source>Nothing to do: the vocab already has %1 tokens (target %2). Raise the vocab size to train further.</source>
        <translation>
            <numerusform>无事可做：词表已有 %1 个词元（目标 %2）。提高词表大小才能继续训练。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/summary.py" line="50"/>
        <source>Trained %n merge(s) in %3 s; vocab size %1.</source>
        <translation>用 %3 秒完成 %n 次合并；词表大小 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/summary.py" line="54"/>
        <source>No merges: the corpus has no pair of adjacent tokens to merge. The vocab is 256 bytes + %n special token(s) = %1 tokens.</source>
        <translation>没有合并：语料中没有可合并的相邻词元对。词表为 256 个字节 + %n 个特殊标记 = %1 个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/summary.py" line="62"/>
        <source>Stopped at vocab size %1 (of %2 requested): no pair is left to merge (%n merge(s) in this run).</source>
        <translation>停在词表大小 %1（目标 %2）：没有可合并的字节对了（本次运行完成 %n 次合并）。</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="66"/>
        <source>Nothing to rewind: merge #%1 is already the last one.</source>
        <translation>无需回退：第 %1 次合并已经是最后一次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="70"/>
        <source>Nothing to rewind: no merges were added to the base tokenizer yet.</source>
        <translation>没有可回退的：还没有向基础分词器添加任何合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="79"/>
        <source>Rewinding to merge #%1 …</source>
        <translation>正在回退到第 %1 次合并 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="107"/>
        <source>Back to the base %1: undid %n new merge(s); vocab size %2.</source>
        <translation>回到基础分词器 %1：撤销了 %n 次新合并；词表大小 %2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="114"/>
        <source>Rewound %n merge(s): merge #%1 is the last one; vocab size %2.</source>
        <translation>已回退 %n 次合并：第 %1 次合并现在是最后一次；词表大小 %2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="122"/>
        <source>Reset: undid all %n merge(s); vocab size %1.</source>
        <translation>重置：已撤销全部 %n 次合并；词表大小 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="139"/>
        <source>Wait for the current task to finish (or cancel it) before saving.</source>
        <translation>请等待当前任务完成（或取消它）后再保存。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="142"/>
        <source>Nothing to save yet: open a corpus or import a tokenizer first.</source>
        <translation>还没有可保存的内容：请先打开语料或导入分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="193"/>
        <source>Saved the session (%n merge(s)) to %1.</source>
        <translation>已将会话（%n 次合并）保存到 %1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="208"/>
        <source>Wait for the current task to finish (or cancel it) before opening a session.</source>
        <translation>请等待当前任务完成（或取消它）后再打开会话。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="241"/>
        <location filename="../../bpe_gui/actions/session.py" line="300"/>
        <source>Reopened the session %1 (no merges yet).</source>
        <translation>已重新打开会话 %1（还没有合并）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="247"/>
        <location filename="../../bpe_gui/actions/session.py" line="306"/>
        <source>Reopened the session %1: %n merge(s) replayed on its corpus.</source>
        <translation>已重新打开会话 %1：在其语料上重放了 %n 次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="254"/>
        <location filename="../../bpe_gui/actions/session.py" line="313"/>
        <source>Replaying the session&apos;s merges …</source>
        <translation>正在重放会话中的合并 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="261"/>
        <source>its corpus %1 is gone</source>
        <translation>它的语料 %1 已不存在</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="263"/>
        <source>its corpus %1 changed since the session was saved</source>
        <translation>它的语料 %1 在保存会话后已改变</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="268"/>
        <source>Opened the session %1: a tokenizer without a corpus; open a corpus to train.</source>
        <translation>已打开会话 %1：一个没有语料的分词器；打开语料即可训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="273"/>
        <source>Opened the session %1, but %2: showing the saved tokenizer. Open the corpus again to train further.</source>
        <translation>已打开会话 %1，但%2：显示的是保存的分词器。重新打开语料才能继续训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/actions/session.py" line="326"/>
        <source>Opening the session %1 …</source>
        <translation>正在打开会话 %1 …</translation>
    </message>
</context>
<context>
    <name>SessionWindow</name>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="53"/>
        <source>%1 throws away the %n merge(s) trained so far.</source>
        <translation>%1 会丢弃目前训练出的 %n 次合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="60"/>
        <source>Discard the trained merges?</source>
        <translation>丢弃已训练的合并？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="65"/>
        <source>Save the session or export the tokenizer first to keep them.</source>
        <translation>如需保留，请先保存会话或导出分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="66"/>
        <source>Save session first…</source>
        <translation>先保存会话…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="67"/>
        <source>Export first…</source>
        <translation>先导出…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="68"/>
        <source>Discard merges</source>
        <translation>丢弃合并</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="71"/>
        <location filename="../../bpe_gui/window/sessions.py" line="279"/>
        <source>Don&apos;t ask again</source>
        <translation>不再询问</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="102"/>
        <source>Opening %1</source>
        <translation>打开 %1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="111"/>
        <source>Corpus to continue training on</source>
        <translation>用于继续训练的语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="113"/>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="126"/>
        <source>Continuing on %1</source>
        <translation>在 %1 上继续训练</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="137"/>
        <source>Importing %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="146"/>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="169"/>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="175"/>
        <source>Opening the session %1</source>
        <translation>打开会话 %1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="271"/>
        <source>Reopen the last session?</source>
        <translation>重新打开上次的会话？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="272"/>
        <source>Reopen your last session (%1)?</source>
        <translation>重新打开上次的会话(%1)吗？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="277"/>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="278"/>
        <source>Start with the sample</source>
        <translation>从示例语料开始</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="296"/>
        <source>Corpus: %1</source>
        <translation>语料：%1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="296"/>
        <source>none (an imported tokenizer)</source>
        <translation>无（导入的分词器）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="300"/>
        <source>an imported tokenizer</source>
        <translation>一个导入的分词器</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="302"/>
        <source>Continued from %1 (%n merge(s))</source>
        <translation>从 %1 继续训练（%n 次合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="305"/>
        <source>New merges: %1 · target vocab size: %2</source>
        <translation>新合并：%1 · 目标词表大小：%2</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="307"/>
        <source>New merges: %1</source>
        <translation>新合并：%1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="311"/>
        <source>Merges: %1 · target vocab size: %2</source>
        <translation>合并：%1 · 目标词表大小：%2</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="311"/>
        <source>Merges: %1</source>
        <translation>合并：%1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="314"/>
        <source>Saved: %1</source>
        <translation>保存于：%1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/window/sessions.py" line="322"/>
        <source>Select a merge first (timeline or merges list), then rewind to it.</source>
        <translation>请先选择一次合并（时间线或合并列表），再回退到它。</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="64"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="72"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/messages.py" line="72"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>Story</name>
    <message>
        <location filename="../../bpe_gui/text/story.py" line="35"/>
        <source>No other pair was as frequent, so it was the clear winner.</source>
        <translation>没有其他字节对同样频繁，所以它明确胜出。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/story.py" line="37"/>
        <source>the rule takes the lexicographically greatest pair compared as (bytes, bytes): the first tokens&apos; bytes are compared first, the second tokens&apos; only when the first are equal</source>
        <translation>规则取按 (bytes, bytes) 比较时字典序最大的字节对：先比较第一个词元的字节，只有第一个相同时才比较第二个词元的字节</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/story.py" line="43"/>
        <source>the rule takes the pair that appears first in the text</source>
        <translation>规则取文本中最先出现的字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/text/story.py" line="45"/>
        <source>%1 other pair(s) were just as frequent (a tie); %2.</source>
        <translation>另有 %1 个字节对同样频繁（平局）；%2。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="72"/>
        <source>Merge #%1: %2 + %3 → %4 (id %5), seen %6 time(s) in %7 distinct word(s).</source>
        <translation>第 %1 次合并：%2 + %3 → %4（ID %5），在 %7 个不同的单词中出现 %6 次。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="155"/>
        <source>This is merge #%1 of an imported tokenizer. Its file lists the merges in order but not how often each pair occurred in the text it was trained on, so there are no counts, changed words or reasons to show; train on a corpus (or open a bpe.json with its training record) to see them.</source>
        <translation>这是导入的分词器的第 %1 次合并。它的文件按顺序列出合并规则，但没有记录每个字节对在训练文本中出现的次数，所以这里没有次数、变化的单词或原因可以显示；在语料上训练（或打开带有训练记录的 bpe.json）就能看到。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="173"/>
        <source>&lt;b&gt;The pair.&lt;/b&gt; The two tokens %1 stood side by side %2 time(s) in the corpus, in %3 distinct word(s) (%4).</source>
        <translation>&lt;b&gt;字节对。&lt;/b&gt;两个词元 %1 在语料中相邻出现了 %2 次，分布在 %3 个不同的单词（%4）中。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="183"/>
        <source>pre-tokens</source>
        <translation>预分词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="200"/>
        <source>&lt;b&gt;Why it won.&lt;/b&gt; It was the most frequent %1. %2</source>
        <translation>&lt;b&gt;为什么是它。&lt;/b&gt;它是最频繁的%1。%2</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="201"/>
        <source>byte pair</source>
        <translation>字节对</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="208"/>
        <source>What is a tie rule?</source>
        <translation>什么是平局规则？</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="217"/>
        <source>&lt;b&gt;What changed.&lt;/b&gt; %1 distinct word(s) changed, which occur %2 time(s) in the corpus. Only these words were touched: that is the %3.</source>
        <translation>&lt;b&gt;改变了什么。&lt;/b&gt;%1 个不同的单词发生了变化，它们在语料中共出现 %2 次。只有这些单词被处理：这就是%3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="140"/>
        <source>&lt;b&gt;The new token.&lt;/b&gt; %1 joins the %2 with id &lt;b&gt;%3&lt;/b&gt;; from now on the two parts are written as one token wherever they meet.</source>
        <translation>&lt;b&gt;新词元。&lt;/b&gt;%1 加入%2，ID 为 &lt;b&gt;%3&lt;/b&gt;；从此以后，这两部分只要相邻，就写成一个词元。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="40"/>
        <source>(the pair %1 times in it)</source>
        <translation>（其中含该字节对 %1 次）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="56"/>
        <source>This token is a piece of a character outside ASCII.</source>
        <translation>这个词元是一个 ASCII 以外字符的一部分。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="59"/>
        <source>This token is a piece of a character outside ASCII (in the examples below: %1).</source>
        <translation>这个词元是某个 ASCII 以外字符的一部分（在下面的例子中：%1）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="65"/>
        <source>In bytes: %1.</source>
        <translation>按字节：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="108"/>
        <source>Tied with it: %1.</source>
        <translation>与之并列：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="113"/>
        <source>It comes before %1 because its first token is greater as bytes: %2 &gt; %3.</source>
        <translation>它排在 %1 之前，因为它的第一个词元按字节比较更大：%2 &gt; %3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="117"/>
        <source>It comes before %1: the first tokens are the same, so the second tokens decide, as bytes: %2 &gt; %3.</source>
        <translation>它排在 %1 之前：两者第一个词元相同，于是由第二个词元按字节比较决定：%2 &gt; %3。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="125"/>
        <source>(Where one starts with the other, the longer one is greater.)</source>
        <translation>（一个以另一个开头时，较长的更大。）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="146"/>
        <location filename="../../bpe_gui/views/story_view.py" line="285"/>
        <source>vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="192"/>
        <source>For example (word ×how often it occurs): %1.</source>
        <translation>例如（单词 ×出现次数）：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="226"/>
        <source>incremental update</source>
        <translation>增量更新</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="234"/>
        <source>The pair stood %1 time(s) but the words holding it occur %2 time(s): some words hold the pair more than once (the pair count counts each place, the word count each word).</source>
        <translation>这个字节对出现了 %1 次，而含有它的单词共出现 %2 次：有些单词不止一次含有这个字节对（字节对计数按每一处计，单词计数按每个单词计）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="252"/>
        <source>Pair counts that went down (their neighbour was merged away): %1.</source>
        <translation>次数减少的字节对（它们的邻居被合并走了）：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="260"/>
        <source>New pairs that appeared with the new token: %1.</source>
        <translation>随新词元出现的新字节对：%1。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="266"/>
        <source>(Pair count changes are not known for this merge: Step keeps them, one whole training run does not.)</source>
        <translation>（这次合并的字节对次数变化未知：“单步”会记录它们，一次完整的训练不会。）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="277"/>
        <source>&lt;b&gt;Compression.&lt;/b&gt; Each merged occurrence saves one token: the corpus becomes up to %1 token(s) shorter, and the %2 grows by one.</source>
        <translation>&lt;b&gt;压缩。&lt;/b&gt;每合并一处就少一个词元：语料最多缩短 %1 个词元，%2增加一项。</translation>
    </message>
</context>
<context>
    <name>StoryView</name>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="307"/>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="321"/>
        <source>Do a step or select a merge: this panel tells what it did, in plain words.</source>
        <translation>走一步或选择一次合并：这里会用浅白的话讲述它做了什么。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/story_view.py" line="331"/>
        <source>This merge was imported: only training records how and why a merge happened.</source>
        <translation>这次合并是导入的：只有训练才会记录合并的过程和原因。</translation>
    </message>
</context>
<context>
    <name>TiktokenOptionsDialog</name>
    <message>
        <location filename="../../bpe_gui/dialogs/import_ask.py" line="34"/>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/import_ask.py" line="39"/>
        <source>A tiktoken file stores neither the pre-tokenizer pattern nor the special tokens, and this one is not a known encoding.</source>
        <translation>tiktoken 文件既不保存预分词模式，也不保存特殊标记，而且这个文件不是已知的编码。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/import_ask.py" line="47"/>
        <source>Pattern (preset or regex):</source>
        <translation>模式（预设或正则）：</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/dialogs/import_ask.py" line="50"/>
        <source>Special tokens (TOKEN=ID):</source>
        <translation>特殊标记(TOKEN=ID)：</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="108"/>
        <source>Top: how often each merged pair occurred when it was merged (log scale). Bottom: how many bytes each new token has.</source>
        <translation>上图：每个字节对被合并时出现的次数（对数刻度）。下图：每个新词元有多少字节。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="136"/>
        <source>pair count (log)</source>
        <translation>字节对次数（对数）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="137"/>
        <source>token bytes</source>
        <translation>词元字节数</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="138"/>
        <source>merge number (#1 = the first merge)</source>
        <translation>合并编号（#1 = 第一次合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="140"/>
        <source>How often the merged pair occurred in the corpus when it was merged (log scale)</source>
        <translation>被合并的字节对在合并时于语料中出现的次数（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="142"/>
        <source>Length in bytes of the token each merge made</source>
        <translation>每次合并生成的词元的字节长度</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="179"/>
        <source>No pair counts for these merges: a tokenizer file does not record them (training on a corpus does).&lt;br&gt;Each merge&apos;s token length is below.</source>
        <translation>这些合并没有字节对次数：分词器文件不记录次数（在语料上训练才会有）。&lt;br&gt;下图是每次合并所得词元的字节数。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="189"/>
        <source>Click a point to see that merge; right-click to rewind to it</source>
        <translation>点击一个点查看那次合并；右键点击可回退到它</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="195"/>
        <source>No merges yet: press Step (→) or Train, and each merge&apos;s pair count and token length appear here.</source>
        <translation>还没有合并：按“单步”(→)或“训练”，每次合并的字节对计数和词元长度会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="356"/>
        <source>new merges →</source>
        <translation>新合并 →</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/timeline_view.py" line="368"/>
        <source>&lt;b&gt;Merge timeline&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— %1 base + %n new merge(s)</source>
        <translation>
            <numerusform>&lt;b&gt;合并时间线&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— 基础 %1 次 + 新增 %n 次合并</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="374"/>
        <source>; new: %1× → %2×</source>
        <translation>；新增部分：%1 次 → %2 次</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/timeline_view.py" line="379"/>
        <source>&lt;b&gt;Merge timeline&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— %n merge(s)</source>
        <translation>
            <numerusform>&lt;b&gt;合并时间线&lt;/b&gt; &lt;span style=&apos;color:#667&apos;&gt;— %n 次合并</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="381"/>
        <source> (no counts in this file)</source>
        <translation>（此文件没有次数）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="384"/>
        <source>; first merge seen %1×, last %2×</source>
        <translation>；第一次合并出现 %1 次，最后一次 %2 次</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/timeline_view.py" line="415"/>
        <source>merge #{0}: {1} ({2})</source>
        <translation>第 {0} 次合并：{1}({2})</translation>
    </message>
</context>
<context>
    <name>TokenLists</name>
    <message>
        <location filename="../../bpe_gui/views/token_lists.py" line="28"/>
        <source>Evaluate the current tokenizer on a text (Evaluate menu) to list the tokens it never used there</source>
        <translation>在某个文本上评估当前分词器（“评估”菜单），即可列出它在那里从未用到的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_lists.py" line="73"/>
        <source>{label}  ({n} bytes, id {id})</source>
        <translation>{label}（{n} 字节，id {id}）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_lists.py" line="85"/>
        <source>{n} tokens never used on {file}</source>
        <translation>{n} 个词元在 {file} 上从未使用</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_lists.py" line="91"/>
        <source>… and {n} more</source>
        <translation>… 以及另外 {n} 个</translation>
    </message>
</context>
<context>
    <name>TokenPane</name>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="56"/>
        <source>&lt;span style=&apos;color:#778&apos;&gt;Hover a token to see its id, bytes and merge; click it to select its merge.&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#778&apos;&gt;把鼠标悬停在词元上，查看它的 ID、字节和合并；点击它可选中造出它的那次合并。&lt;/span&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="335"/>
        <source>Tokens: how many tokens the text becomes. Bytes/token and chars/token: how much text one token carries on average (higher = better compression).</source>
        <translation>词元数：文本变成了多少个词元。字节/词元和字符/词元：平均每个词元承载多少文本（越高压缩越好）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="394"/>
        <source>No tokenizer.</source>
        <extracomment>under the tokens: the characters cut into byte tokens (over their bytes), and whether the pattern&apos;s note on Chinese clauses is said</extracomment>
        <translation>没有分词器。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="434"/>
        <source>&lt;b&gt;{0}&lt;/b&gt; tokens · &lt;b&gt;{1}&lt;/b&gt; bytes/token · &lt;b&gt;{2}&lt;/b&gt; chars/token · vocab {3}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt; 个词元 · &lt;b&gt;{1}&lt;/b&gt; 字节/词元 · &lt;b&gt;{2}&lt;/b&gt; 字符/词元 · 词表 {3}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="438"/>
        <source>0 tokens · vocab {0}</source>
        <translation>0 个词元 · 词表 {0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="460"/>
        <source>Characters split into byte tokens (shown as hex): {0}</source>
        <translation>被切成字节词元的字符（以十六进制显示）：{0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="465"/>
        <source>Split into bytes: {0}</source>
        <translation>拆成字节：{0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="469"/>
        <source>This pattern keeps a run of Chinese characters together (\p{L}+): a whole clause without spaces or punctuation is one pre-token, so merges may join any of its characters.</source>
        <translation>这个预分词模式把连续的汉字放在一起（\p{L}+）：没有空格和标点的一整句是一个预分词，所以合并可以把其中任意相邻的字连起来。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="484"/>
        <source>bytes: {0} &amp;nbsp; hex: {1}</source>
        <translation>字节：{0} &amp;nbsp; 十六进制：{1}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="491"/>
        <source>piece &lt;code&gt;{0}&lt;/code&gt;</source>
        <translation>片段 &lt;code&gt;{0}&lt;/code&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="492"/>
        <source>score {0}</source>
        <translation>分数 {0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="495"/>
        <source>added token, not special (never merged)</source>
        <translation>添加的词元，不是特殊标记（从不参与合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="497"/>
        <source>special token (never merged)</source>
        <translation>特殊标记（永不合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="500"/>
        <source>byte fallback: the character is not in the vocab, so each of its bytes is a token</source>
        <translation>字节回退：该字符不在词表中，所以它的每个字节各成一个标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="503"/>
        <source>user-defined piece (always kept whole)</source>
        <translation>用户定义片段（总是保持完整）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="506"/>
        <source>made by a merge (not recovered from the ranks yet)</source>
        <translation>由一次合并得到（尚未根据排位还原）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="512"/>
        <source>merge #{0}: &lt;code&gt;{1}&lt;/code&gt; + &lt;code&gt;{2}&lt;/code&gt;</source>
        <translation>合并 #{0}：&lt;code&gt;{1}&lt;/code&gt; + &lt;code&gt;{2}&lt;/code&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="517"/>
        <source>single byte (base vocabulary)</source>
        <translation>单字节（基础词表）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="520"/>
        <source>&lt;i&gt;partial UTF-8 character: shown as hex&lt;/i&gt;</source>
        <translation>&lt;i&gt;不完整的 UTF-8 字符：以十六进制显示&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="522"/>
        <source>a piece of: {0}</source>
        <translation>是这个字符的一部分：{0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="524"/>
        <source>characters over their bytes: {0}</source>
        <translation>字符与其字节：{0}</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/token_spans.py" line="548"/>
        <source>In orange: %1, the token of the selected merge #%2 (%n time(s) in this text).</source>
        <translation>
            <numerusform>橙色：%1，选中的第 %2 次合并造出的词元（在这段文本中出现 %n 次）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="553"/>
        <source>The selected merge #%2 made %1: it is not a token of its own in this text (later merges joined it into longer ones, or the text lacks it).</source>
        <translation>选中的第 %2 次合并造出的 %1 在这段文本中不是独立的词元（后来的合并把它并进了更长的词元，或者文本里没有它）。</translation>
    </message>
</context>
<context>
    <name>TokenSpanView</name>
    <message>
        <location filename="../../bpe_gui/views/token_spans.py" line="203"/>
        <source>… {0} more tokens not shown</source>
        <extracomment>a SentencePiece-style model: its byte-fallback pieces are shown by name and underlined whether a token id is an added token that is not special (drawn apart from special ones) side by side: the input&apos;s bytes [start, end) of the token clicked in either pane; the tokens here that hold any of them are marked in blue (cleared when the text is shown again)</extracomment>
        <translation>… 另有 {0} 个词元未显示</translation>
    </message>
</context>
<context>
    <name>TokenizeView</name>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="187"/>
        <source>Type or paste text to tokenize …</source>
        <extracomment>the characters Qt&apos;s text edit keeps none of: (what stands for it in the text, its format&apos;s property)</extracomment>
        <translation>输入或粘贴要分词的文本 …</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="193"/>
        <source>Markers · → ↵</source>
        <translation>标记 · → ↵</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="194"/>
        <source>Show spaces, tabs and newlines as · → ↵</source>
        <translation>把空格、制表符和换行显示为 · → ↵</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="196"/>
        <source>Compare with…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="199"/>
        <source>Open a second tokenizer (GPT-2 vocab.json/merges.txt, tokenizer.json, tiktoken or native file) to compare side by side</source>
        <translation>打开另一个分词器（GPT-2 vocab.json/merges.txt、tokenizer.json、tiktoken 或本应用格式文件）并排比较</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="203"/>
        <source>Close comparison</source>
        <translation>关闭比较</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="205"/>
        <source>&lt;b&gt;This tokenizer&lt;/b&gt;</source>
        <translation>&lt;b&gt;本分词器&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="223"/>
        <source>&lt;b&gt;Tokenize&lt;/b&gt;</source>
        <translation>&lt;b&gt;分词&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="300"/>
        <source>The two tokenizers change the text differently: their tokens cannot be lined up.</source>
        <translation>两个分词器对文本的改写不同：它们的词元无法对齐。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/tokenize_view.py" line="312"/>
        <source>In blue, the same bytes in both: %n token(s) in %1: %2; </source>
        <translation>
            <numerusform>蓝色标出两边的同一段字节：%1 中 %n 个词元：%2；</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/tokenize_view.py" line="314"/>
        <source>%n token(s) in %1: %2.</source>
        <translation>
            <numerusform>%1 中 %n 个词元：%2。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="325"/>
        <source>Token {0} is a character piece of the model: no merge makes it.</source>
        <translation>词元 {0} 是模型的一个字符片段：没有合并会生成它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="327"/>
        <source>Token {0} is a byte-fallback piece: no merge makes it.</source>
        <translation>词元 {0} 是字节回退片段：没有合并会生成它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="329"/>
        <source>Token {0} is an added token (not special): no merge makes it.</source>
        <translation>词元 {0} 是添加的词元（不是特殊标记）：没有合并产生它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="331"/>
        <source>Token {0} is a special token: no merge makes it.</source>
        <translation>词元 {0} 是特殊标记：没有合并产生它。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="333"/>
        <source>Token {0} was made by no merge (a byte or a special token).</source>
        <translation>词元 {0} 不是由合并造出的（它是一个字节或特殊标记）。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="369"/>
        <source>&lt;i&gt;Re-tokenizes when the run is over …&lt;/i&gt;</source>
        <translation>&lt;i&gt;训练结束后重新分词 …&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/tokenize_view.py" line="389"/>
        <source>current tokenizer</source>
        <translation>当前分词器</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/tokenize_view.py" line="394"/>
        <source>%n merge(s)</source>
        <translation>
            <numerusform>%n 次合并</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="30"/>
        <source>None (whole text)</source>
        <translation>不预分词（整段文本）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="31"/>
        <source>Custom regex…</source>
        <translation>自定义正则…</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="34"/>
        <source>Greatest (bytes, bytes)</source>
        <translation>(bytes, bytes) 字典序最大</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="43"/>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="55"/>
        <source>Size of the final vocabulary: 256 bytes + the special tokens + one token per merge</source>
        <translation>最终词表的大小：256 个字节 + 特殊标记 + 每次合并一个词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="60"/>
        <source>Special tokens, separated by spaces; one that contains spaces goes in double quotes (&quot;&lt;|end of turn|&gt;&quot;). They are never merged.</source>
        <translation>特殊标记，用空格分隔；含空格的特殊标记放在双引号中（&quot;&lt;|end of turn|&gt;&quot;）。它们永不合并。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="68"/>
        <source>custom pre-tokenizer regex</source>
        <translation>自定义预分词正则</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="73"/>
        <source>The pre-tokenizer regex that cuts the text into pre-tokens before training; merges never cross pre-tokens</source>
        <translation>训练前把文本切成预分词的正则表达式；合并永远不会跨越预分词</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="78"/>
        <source>Which pair wins when several are equally frequent</source>
        <translation>几个字节对一样频繁时哪个胜出</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="35"/>
        <source>First seen</source>
        <translation>最先出现</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="86"/>
        <source>When several pairs have the same highest count, which one is merged: the lexicographically greatest pair of byte strings, compared as (bytes, bytes) (the CS336 assignment&apos;s rule), or the pair seen first in the corpus (the lecture code&apos;s rule). See Help → Glossary → Tie rule for examples.</source>
        <translation>当多个字节对的计数并列最高时合并哪一个：按 (bytes, bytes) 比较时字典序最大的字节串对（CS336 作业的规则），或在语料中最先出现的字节对（课堂代码的规则）。例子见 帮助 → 术语表 → 平局规则。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="94"/>
        <source>The regex that cuts the text into pre-tokens before counting pairs; merges never cross a pre-token boundary</source>
        <translation>在统计字节对之前把文本切成预分词的正则表达式；合并永远不会跨越预分词的边界</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="107"/>
        <source>Apply (re-reads the corpus)</source>
        <translation>应用（重新读取语料）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="108"/>
        <source>Use the edited settings: the corpus is read again with them</source>
        <translation>使用编辑后的设置：用它们重新读取语料</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="118"/>
        <source>Vocab size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="121"/>
        <source>Special tokens</source>
        <translation>特殊标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="122"/>
        <source>Pattern</source>
        <translation>预分词模式</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="125"/>
        <source>Tie rule</source>
        <translation>平局规则</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="127"/>
        <source>◀ Undo</source>
        <translation>◀ 撤销</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="128"/>
        <source>Undo the last merge (← or Ctrl+Z)</source>
        <translation>撤销上一次合并（← 或 Ctrl+Z）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="129"/>
        <source>Step ▶</source>
        <translation>单步 ▶</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="130"/>
        <source>Do one merge (→ or Space)</source>
        <translation>做一次合并（→ 或空格）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="136"/>
        <source>How many merges Step N does (Shift+→)</source>
        <translation>“单步 N”一次做多少次合并(Shift+→)</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="137"/>
        <source>Step N</source>
        <translation>走 N 步</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="138"/>
        <source>Train to vocab size</source>
        <translation>训练到词表大小</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="141"/>
        <source>Run the merges in the background until the vocab size (Ctrl+T)</source>
        <translation>在后台运行合并，直到达到词表大小（Ctrl+T）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="143"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="144"/>
        <source>Stop the running task (Esc); the merges done so far are kept</source>
        <translation>停止正在运行的任务（Esc）；已完成的合并会保留</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="159"/>
        <location filename="../../bpe_gui/views/training_panel.py" line="479"/>
        <location filename="../../bpe_gui/views/training_panel.py" line="490"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="164"/>
        <source>Tokens in the vocab now / the vocab size Train stops at · merges done (each adds one token) · special tokens (never merged)</source>
        <translation>当前词表中的词元数 / “训练”停止时的词表大小 · 已完成的合并（每次增加一个词元） · 特殊标记（从不合并）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="246"/>
        <source>Not a valid regular expression ({0}). Fix it, or choose another pattern.</source>
        <translation>不是有效的正则表达式（{0}）。请修改，或选择其他模式。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="249"/>
        <source>Type a regular expression, or choose another pattern.</source>
        <translation>请输入正则表达式，或选择其他模式。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="251"/>
        <source>This regular expression only matches the empty string: it cuts nothing.</source>
        <translation>这个正则表达式只匹配空字符串：它切不出任何内容。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="254"/>
        <source>This regular expression can match the empty string, where Hugging Face tokenizers and tiktoken cut text otherwise (tiktoken fails). Make every alternative match at least one character: + instead of *, no ? after a whole alternative.</source>
        <translation>这个正则表达式能匹配空字符串；在这种位置上 Hugging Face tokenizers 和 tiktoken 切分文本的方式不同（tiktoken 会出错）。请让每个分支至少匹配一个字符：用 + 代替 *，不要在整个分支后面加 ?。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="273"/>
        <source>Special tokens: the quote before {0} is not closed (write a token that contains spaces as &quot;like this&quot;)</source>
        <translation>特殊标记：{0} 前面的引号没有闭合（含空格的标记请写成 &quot;像这样&quot;）</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="283"/>
        <source>Applying the settings</source>
        <translation>正在应用设置</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="328"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="329"/>
        <source>lexicographic</source>
        <translation>字典序</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="329"/>
        <source>first seen</source>
        <translation>最先出现</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="330"/>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="334"/>
        <source>Extension: it uses its base&apos;s pattern (%2) and special tokens (%3); the ones above are for the next corpus.</source>
        <translation>扩展：使用其基础分词器的模式（%2）和特殊标记（%3）；上面的设置用于下一份语料。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="339"/>
        <source>Imported tokenizer (%1): pattern %2, special tokens %3, tie rule %4. The settings above are for the next corpus you open.</source>
        <translation>导入的分词器(%1)：模式 %2，特殊标记 %3，平局规则 %4。上面的设置用于你下一次打开的语料。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/training_panel.py" line="346"/>
        <source>It also has %n added token(s) that are not special (&quot;special&quot;: false in the file).</source>
        <translation>
            <numerusform>另有 %n 个添加的词元不是特殊标记（文件中标为 &quot;special&quot;: false）。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="356"/>
        <source>a custom regex</source>
        <translation>自定义正则表达式</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/training_panel.py" line="359"/>
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/training_panel.py" line="392"/>
        <source>At least %1: the 256 byte tokens + %n special token(s).</source>
        <translation>
            <numerusform>至少 %1：256 个字节词元 + %n 个特殊标记。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="398"/>
        <source>Above %1: the base tokenizer %2 keeps all its tokens.</source>
        <translation>须大于 %1：基础分词器 %2 的全部词元都会保留。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="402"/>
        <source>The vocab size to train to. </source>
        <translation>要训练到的词表大小。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="404"/>
        <source>Too small. </source>
        <translation>太小。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="425"/>
        <source>Training to this vocab size needs about {0} of memory: an estimate from the corpus&apos;s {1} distinct pre-tokens ({2} MB) and the merges to the vocab size, with the undo history the app keeps. The command line (bpe-explorer train) keeps no history and needs less.</source>
        <translation>训练到该词表大小约需 {0} 内存：根据语料的 {1} 个不同预分词（{2} MB）和训练到该词表大小所需的合并次数估算，含本应用保留的撤销历史。命令行（bpe-explorer train）不保留历史，所需内存更少。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="431"/>
        <source>≈ {0}</source>
        <comment>memory training needs, beside the vocab size</comment>
        <translation>约需 {0}</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="439"/>
        <source>Training to this vocab size needs about {0} of memory; this computer has {1} free. Choose a smaller vocab size or corpus, or train with bpe-explorer train.</source>
        <translation>训练到该词表大小约需 {0} 内存；本机可用 {1}。请选用更小的词表大小或语料，或用 bpe-explorer train 训练。</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="477"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="477"/>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message numerus="yes">
        <location filename="../../bpe_gui/views/training_panel.py" line="497"/>
        <source>&lt;b&gt;%n&lt;/b&gt; merge(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%n&lt;/b&gt; 次合并</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="503"/>
        <source>Vocab &lt;b&gt;%1&lt;/b&gt; · %3 · %4 special · %5 added</source>
        <translation>词表 &lt;b&gt;%1&lt;/b&gt; · %3 · %4 个特殊标记 · %5 个添加的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="505"/>
        <source>Vocab &lt;b&gt;%1&lt;/b&gt; · %3 · %4 special</source>
        <translation>词表 &lt;b&gt;%1&lt;/b&gt; · %3 · %4 个特殊标记</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="509"/>
        <source>Vocab &lt;b&gt;%1&lt;/b&gt; / %2 · %3 · %4 special · %5 added</source>
        <translation>词表 &lt;b&gt;%1&lt;/b&gt; / %2 · %3 · %4 个特殊标记 · %5 个添加的词元</translation>
    </message>
    <message>
        <location filename="../../bpe_gui/views/training_panel.py" line="511"/>
        <source>Vocab &lt;b&gt;%1&lt;/b&gt; / %2 · %3 · %4 special</source>
        <translation>词表 &lt;b&gt;%1&lt;/b&gt; / %2 · %3 · %4 个特殊标记</translation>
    </message>
</context>
</TS>
