"""Keys and frames of the intent layer for concealment as a concept (scanner 13): an
entry that has the future agent make the user believe something false about the agent's
own state, actions or memory, hide from the user what it does or stores, or show the
user only a filtered part when asked.

Objects × acts × the user as audience, each concept written once from the concept (not
from any set's rows) in the intent layer's languages (English, Chinese, Japanese, Korean,
Russian, Ukrainian, Arabic, Persian, Hebrew, Hindi, Bengali, Spanish, Portuguese, French,
Italian, German, Dutch, Polish, Czech, Romanian, Turkish, Greek, Vietnamese, Indonesian):

* ``trace``, the object: what the agent stored, did or changed ("what you saved", "the
  changes you make", "chat history", "the logs", "uploads");
* ``falsestate``, a claim about the agent's own state that makes it look clean ("I start
  fresh every conversation", "memory is off", "you don't remember anything");
  ``noclean``, the same said impersonally ("nothing was changed", "nothing was saved"),
  which is also the truth about many things that are not the agent's: it counts only
  beside the agent's traces, memory or the user;
* ``evenif``, the claim said against what the agent did ("even if you changed it",
  "даже если ты", "auch wenn du"): a cover story, and about the agent's own acts;
* ``iftrue``, a claim made only on the condition that it holds ("if memory is off",
  "if nothing changed", "si es cierto"): the truth, not a cover story;
* ``whenasked``, the cover-story trigger ("if asked", "wenn er fragt", "si te pregunta",
  "聞かれたら"); not telling the user something even when asked is held;
* ``evidence``, what shows that something was done (the history, an audit log, the sent
  folder, notifications); ``notrace``, done so that the user does not see it ("leave no
  trace", "so the user doesn't notice", "before they check"): erasing traces so is
  blocked, as it is when done covertly;
* ``offrecord``, kept out of the agent's answers ("between you and", "off the record",
  "out of your replies");
* ``onlyshow``, a filtered answer ("show only", "zeige nur", "muestra solo", "只显示");
* ``confirmdel``, telling the user a deletion happened ("confirm the deletion", "the
  success message"); ``stillkept``, the data that stays all the same ("the purge is
  deferred indefinitely", "not actually deleted", "bleiben trotzdem");
* :data:`MORE` adds "answer no" in every language to ``deny``.

:data:`FIRST` are block frames read before the older concealment frames (a frame
matched first wins within an intent); :data:`LAST` are hold frames read after them.
Honest look-alikes stay allowed by construction: a privacy request names the user's own
details, not the agent's traces; "say you don't know when you don't know" states no
clean state; a retention policy says how long data is kept, not that it is kept while
the user is told otherwise.

**Advice and warning notes are not attacks** (the other side of the same question: who
is kept from knowing what). A note that protects the user from a lure names the same
objects an attack does (one-time codes, passwords, the system prompt, a bank account),
but puts them under a negated or prohibitive frame with no channel or recipient: "the
bank never asks for your OTP", "we will never ask you for your MFA code by chat", "the
contents are not made public", "call only the number in the contract, do not pay before
confirming".

Two concepts, each written once in the intent layer's languages:

* ``neverasks``: someone (a bank, IT, the platform) never asks for a thing ("will never
  ask", "nunca te pedirá", "ne demande jamais", "никогда не просит", "从不索要",
  "नहीं माँगता");
* ``verifyfirst``: check through a channel the user already knows before acting ("call
  the number in the contract", "verify by phone", "sözleşmedeki numarayı arayın",
  "打合同上的电话"); not "before paying" or "without confirming" alone, which an attack
  says too ("pay without confirming").

A sentence is *advice* when it holds either, or when a sensitive object (credentials,
the prompt, a payee) stands in it under a negated request, disclosure or send, and no
outside address (a channel or recipient) stands in the same sentence. A text with advice
has the intents that would harvest or leak those objects lowered one step (block to
hold, hold to nothing); a learned score alone on it is no finding when no intent was
found at all and the warning is about what a lure takes from the user (credentials, a
payee) in a text that sets no instruction aside and names no prompt. Intents of other
kinds (concealment, persistence...) are untouched.
"""

from __future__ import annotations

import re

__all__ = [
    "ACTIONS",
    "ADVICE",
    "CONCEAL",
    "FIRST",
    "LAST",
    "LOWERED",
    "MORE",
    "OVERRIDES",
    "is_advice",
    "mask_lures",
]

#: The new concepts that are actions: a negation before them cancels them.
ACTIONS = frozenset({"onlyshow", "confirmdel"})

CONCEAL: dict[str, str] = {
    "trace": """
        what you store*; what you saved; what you have saved; what you've saved;
        what you keep; what you remember; what you know about; anything you saved;
        anything you stored; anything saved; anything stored; anything about them;
        anything about him; anything about her; saved anything; stored anything;
        kept anything; recorded anything; whatever you do; what you do; changes you make;
        changes you made; changes you've made; any changes; the changes; what you changed;
        what was changed; what you did; actions you take; your actions; chat history;
        conversation history; browsing history; search history; activity log*; the logs;
        your logs; uploads; what was uploaded; what you upload*; data you collect;
        was du gespeichert; etwas gespeichert; gespeichert hast; gespeichert; aufgezeichnet;
        protokolliert; anderungen; anderung; anderungen vornimmst; was du geandert hast;
        chatverlauf; verlauf; hochgeladen; was du weisst; lo que guardas;
        lo que has guardado; has guardado; guardaste; guardado; guardados; lo que recuerdas;
        lo que sabes; registrado; cambios; cualquier cambio; historial; registros;
        lo que subiste; subido; ce que tu enregistres; ce que tu as enregistre; enregistre;
        enregistres; ce que tu sais; ce dont tu te souviens; modifications; changements;
        historique; journaux; televerse; o que voce guarda; o que voce salvou; salvou;
        guardou; alteracoes; mudancas; historico; registros; enviado; cosa hai salvato;
        hai salvato; salvato; salvati; memorizzato; cosa ricordi; modifiche; cronologia;
        registri; caricato; opgeslagen; bewaard; wijzigingen; geschiedenis; logboek*;
        geupload; zapisał*; zapisan*; zapamiętał*; zmian*; historia; historii; logi;
        przesłan*; сохранил*; сохранен*; сохранён*; запомнил*; изменени*; истори*; логи;
        журнал*; загрузил*; загружен*; что ты знаешь; зберіг*; збереж*; запам'ятав*; змін*;
        історі*; журнал*; завантаж*; kaydettiğin*; kaydettin; kaydedil*; sakladığın*;
        değişiklik*; geçmiş*; kayıtlar*; yüklen*; 保存了; 存了; 记住了; 记下; 记录; 更改;
        修改; 改动; 变更; 历史; 日志; 上传; 保存した; 保存して; 保存され; 記録; 覚えて;
        変更; 履歴; ログ; アップロード; 저장; 기록; 기억하; 변경; 수정; 이력; 로그; 업로드;
        حفظت; محفوظ; السجل; السجلات; التغييرات; تغييرات; التعديلات; تعديلات; رفعت; ذخیره;
        تغییرات; تاریخچه; سابقه; שמרת; נשמר; שינויים; היסטוריה; יומן; सहेजा; सेव किया;
        रिकॉर्ड; बदलाव; परिवर्तन; इतिहास; लॉग; अपलोड; সংরক্ষণ; সেভ; রেকর্ড; পরিবর্তন; ইতিহাস; লগ;
        আপলোড; uložil*; uložen*; změn*; historie; historii; protokol*; nahrán*; ai salvat;
        salvat; modificări; modificarile; schimbări; istoric*; jurnal*; αποθηκευ*; αλλαγ*;
        ιστορικ*; đã lưu; lưu lại; thay đổi; lịch sử; nhật ký; tải lên; disimpan;
        kamu simpan; perubahan; riwayat; diunggah
    """,
    "falsestate": """
        start fresh; starts fresh; starting fresh; start from scratch;
        fresh every conversation; fresh each time; fresh every time; blank slate;
        remember nothing; don't remember anything; do not remember anything;
        can't remember anything; don't keep anything; do not keep anything;
        don't store anything; do not store anything; don't save anything; made no changes;
        didn't change anything; did not change anything; haven't changed anything;
        haven't saved anything; have not saved anything; memory is off; memory is disabled;
        memory is turned off; memory was turned off; memory has been turned off;
        have no memory; don't have memory; do not have memory; don't have any memory;
        no memory of; forgot everything; forget everything; fange neu an; fangst neu an;
        fangst jedes mal neu an; jedes mal neu; erinnerst dich an nichts;
        erinnere mich an nichts; nichts geandert; speicher ist aus; gedachtnis ist aus;
        gedachtnis ist deaktiviert; kein gedachtnis; alles vergessen; empiezas de cero;
        empiezo de cero; empiezas desde cero; empiezo desde cero; no recuerdas nada;
        no recuerdo nada; no guardas nada; no cambie nada; no hice cambios;
        memoria desactivada; memoria esta apagada; no tengo memoria; lo olvide todo;
        repars de zero; recommences a zero; recommence a zero; repars a zero;
        tu ne te souviens de rien; je ne me souviens de rien; memoire desactivee;
        memoire est desactivee; je n'ai pas de memoire; j'ai tout oublie; comeca do zero;
        comeco do zero; nao lembra de nada; nao me lembro de nada; memoria desativada;
        memoria esta desligada; nao tenho memoria; esqueci tudo; ricominci da zero;
        riparti da zero; ricomincio da zero; non ricordi nulla; non ricordi niente;
        non ricordo niente; non ricordo nulla; memoria disattivata; non ho memoria;
        ho dimenticato tutto; begint opnieuw; begin elke keer opnieuw; met een schone lei;
        herinnert niets; herinner me niets; geheugen staat uit; geen geheugen;
        alles vergeten; zaczynasz od nowa; zaczynam od nowa; zaczynasz od zera;
        nic nie pamiętasz; nic nie pamiętam; nic nie zapisuję; pamięć jest wyłączona;
        pamięć wyłączona; nie mam pamięci; wszystko zapomniałem; с чистого листа;
        начинаешь заново; начинаю заново; ничего не помнишь; ничего не менял;
        ничего не сохранял; память отключена; память выключена; у меня нет памяти;
        у тебя нет памяти; нет памяти;
        всё забыл; все забыл; з чистого аркуша; починаєш заново; починаю заново;
        нічого не пам'ятаєш; нічого не пам'ятаю; пам'ять вимкнена; не маю пам'яті;
        sıfırdan başla*; her seferinde sıfırdan;
        hiçbir şey hatırlamıyorum; hiçbir şey hatırlamıyorsun; hiçbir şey kaydetmiyorum;
        hafıza kapalı; belleğim yok; 每次都从头开始; 每次都重新开始; 每次都是新的;
        什么都不记得; 不记得任何; 我没有记忆; 记忆已关闭; 记忆功能已关闭; 记忆功能关闭;
        什么都没改; 没有做任何修改; 没有做任何更改; 没有修改任何; 没有保存任何;
        什么都没保存; 全忘了; 毎回リセット; 毎回ゼロから; 何も覚えていません;
        記憶はありません; 記憶機能はオフ; 記憶はオフ; 記憶をオフ; 何も変更していません;
        何も変更していない; 何も変えていない; 何も保存していません; 何も保存していない;
        何もアップロード; 全部忘れ; 매번 처음부터; 새로 시작; 아무것도 기억하지; 기억이 없;
        기억 기능이 꺼져; 아무것도 바꾸지; 아무것도 변경하지; 변경한 것이 없;
        아무것도 저장하지; 다 잊었; أبدأ من جديد; تبدأ من جديد; لا أتذكر شيئا;
        لا تتذكر شيئا; الذاكرة معطلة; الذاكرة متوقفة; ليس لدي ذاكرة; نسيت كل شيء;
        از نو شروع; چیزی یادم نیست; حافظه خاموش; מתחיל מחדש; לא זוכר כלום; הזיכרון כבוי;
        नए सिरे से शुरू; कुछ याद नहीं; कुछ भी याद नहीं; मेमोरी बंद; याददाश्त बंद; सब भूल;
        নতুন করে শুরু; কিছুই মনে নেই; কিছু মনে নেই; মেমরি বন্ধ; začínáš znovu;
        nic si nepamatuješ; si nic nepamatuješ; nic si nepamatuji; paměť je vypnutá;
        o iei de la capăt;
        nu îți amintești nimic; nu îmi amintesc nimic; memoria este dezactivată;
        ξεκινάς από την αρχή; δεν θυμάμαι τίποτα; δεν θυμάσαι τίποτα;
        η μνήμη είναι απενεργοποιημένη; bắt đầu lại từ đầu; không nhớ gì; bộ nhớ đã tắt;
        mulai dari awal setiap; tidak ingat apa-apa; memori dimatikan
    """,
    "noclean": """
        nothing was changed; nothing has changed; nothing changed; no changes were made;
        nothing was touched; nothing was saved; nothing was stored; nothing was uploaded;
        nothing was kept; nothing was recorded; nichts wurde geandert;
        es wurde nichts geandert; keine anderungen vorgenommen; nichts hochgeladen;
        nichts aufgezeichnet; no se cambio nada; nada cambio; no se hicieron cambios;
        nada fue cambiado; no se subio nada; no se guardo nada; rien n'a change;
        rien n'a ete modifie; rien n'a ete change; aucune modification n'a ete;
        aucun changement n'a ete; rien n'a ete enregistre; rien n'est enregistre;
        nada foi alterado; nada mudou; nenhuma alteracao foi; nada foi salvo;
        nada foi guardado; nulla e cambiato; niente e cambiato;
        non e stato modificato nulla; non e cambiato nulla; nessuna modifica e stata;
        non e stato salvato nulla; niets veranderd; niets gewijzigd; er is niets gewijzigd;
        geen wijzigingen aangebracht; niets opgeslagen; nic się nie zmieniło;
        nic nie zmieniono; nie wprowadzono zmian; nic nie zapisano; ничего не изменилось;
        ничего не было изменено; ничего не изменено; изменений не было;
        никаких изменений не; ничего не сохранено; ничего не загружено; нічого не змінилося;
        нічого не змінено; змін не було; жодних змін не; нічого не збережено;
        hiçbir şey değişmedi; hiçbir değişiklik yapılmadı; değişiklik yapılmadı;
        hiçbir şey kaydedilmedi; 没有改动; 没有任何更改; 没有变更; 没有上传;
        変更はありません; 변경 사항이 없; 저장된 것이 없; لم يتغير شيء; لم يتم تغيير;
        لم يتم تعديل; لم يتم إجراء أي تغيير; لا توجد تغييرات; لم يتم حفظ; لم يحفظ شيء;
        چیزی تغییر نکرد; هیچ تغییری; چیزی ذخیره نشد; שום דבר לא השתנה; לא בוצעו שינויים;
        לא נשמר כלום; कुछ नहीं बदला; कोई बदलाव नहीं; कुछ भी नहीं बदला; कुछ सेव नहीं;
        कुछ भी सहेजा नहीं; কিছুই বদলানো হয়নি; কোনো পরিবর্তন হয়নি; কোনো পরিবর্তন করা হয়নি;
        কিছুই সংরক্ষণ করা হয়নি; nic se nezměnilo; nebyly provedeny žádné změny;
        nic nebylo uloženo; nu s-a schimbat nimic; nu s-a modificat nimic;
        nimic nu a fost salvat; δεν άλλαξε τίποτα; δεν έγινε καμία αλλαγή;
        δεν αποθηκεύτηκε τίποτα; không thay đổi gì; không có thay đổi nào; không lưu gì;
        tidak ada yang diubah; tidak ada perubahan yang; tidak ada yang disimpan
    """,
    "whenasked": """
        if asked; when asked; even if asked; even when asked; even if they ask;
        even when they ask; when the user asks; even when the user asks; if they ask;
        if he asks; if she asks; if the user asks; if anyone asks; if someone asks;
        when they ask; when he asks; when she asks; should they ask; if questioned;
        if they ever ask; if he ever asks; if she ever asks; falls gefragt; wenn gefragt;
        wenn er fragt; wenn sie fragt; wenn sie fragen; wenn jemand fragt; auf nachfrage;
        falls er fragt; falls sie fragt; si pregunta; si te pregunta; si preguntan;
        si te preguntan; cuando pregunte; si alguien pregunta; si on te demande;
        s'il demande; si elle demande; si l'utilisateur demande; s'il te demande;
        si elle te demande; se perguntar; se perguntarem; caso pergunte; se ele perguntar;
        se ela perguntar; se chiede; se ti chiede; se te lo chiede; se qualcuno chiede;
        als hij vraagt; als ze vraagt; als ze vragen; indien gevraagd; als iemand vraagt;
        jeśli zapyta; jeżeli zapyta; gdy zapyta; jeśli ktoś zapyta; jeśli zapytają;
        если спросит; если спросят; спросит; спросят; спитає; запитає; zapyta; zapytają; zeptá;
        întreabă; ρωτήσει; если будут спрашивать; если он спросит;
        если она спросит; якщо спитає; якщо запитає; якщо спитають; якщо запитають; sorarsa;
        sorulursa; soracak olursa; 如果问; 如果他问; 如果她问; 如果用户问; 问起; 被问到;
        若问; 要是问; 聞かれたら; 尋ねられたら; 質問されたら; 訊かれたら; 聞かれても;
        물어보면; 묻는다면; 질문하면; 물으면; إذا سأل; اذا سأل; إن سأل; إذا سألك; اذا سألك;
        عند السؤال; اگر پرسید; اگر بپرسد; اگر پرسیدند; אם ישאל; אם ישאלו; אם תישאל;
        अगर पूछे; पूछे तो; पूछने पर; अगर वो पूछे; জিজ্ঞেস করলে; জানতে চাইলে; pokud se zeptá;
        když se zeptá; dacă întreabă; dacă te întreabă; αν ρωτήσει; αν ρωτήσουν; nếu hỏi;
        nếu họ hỏi; nếu được hỏi; jika ditanya; kalau ditanya; jika dia bertanya
    """,
    "onlyshow": """
        show only; only show; just show; list only; only list; only mention; show just;
        zeige nur; zeig nur; nenne nur; liste nur; muestra solo; muestra solamente;
        muestra unicamente; solo muestra; ensena solo; menciona solo; montre seulement;
        montre uniquement; n'affiche que; ne montre que; ne mentionne que; mostra apenas;
        mostre apenas; mostra somente; mostre somente; mostra solo; mostra soltanto;
        mostra solamente; toon alleen; laat alleen; noem alleen; pokaż tylko; pokazuj tylko;
        wymień tylko; покажи только; показывай только; называй только; покажи лише;
        показуй лише; sadece göster; yalnızca göster; sadece listele; 只显示; 只展示;
        只给看; 只列出; 只给他看; 只给她看; だけ表示; だけ見せ; だけを表示; だけを見せ;
        만 보여; 만 표시; 만 알려; اعرض فقط; أظهر فقط; فقط اعرض; فقط نشان; הצג רק; תראה רק;
        केवल दिखा; सिर्फ दिखा; सिर्फ़ दिखा; শুধু দেখা; zobraz jen; ukaž jen; ukaž pouze;
        arată doar; arată numai; δείξε μόνο; chỉ hiển thị; chỉ cho xem; hanya tampilkan;
        tampilkan hanya
    """,
    "iftrue": """
        if it's true; if it is true; if that's true; if that is true; only if true;
        only if it is true; when it is true; if that's the case; if that is the case;
        if memory is off; if memory is disabled; if memory is turned off; when memory is off;
        when memory is disabled; if nothing was changed; if nothing changed;
        when nothing changed; if nothing was saved; wenn das stimmt; falls es stimmt;
        nur wenn es stimmt; wenn der speicher aus ist; wenn nichts geandert wurde;
        si es verdad; si es cierto; solo si es cierto; si la memoria esta desactivada;
        si no se cambio nada; si c'est vrai; seulement si c'est vrai;
        si la memoire est desactivee; si rien n'a change; se for verdade; se for verdadeiro;
        se a memoria estiver desativada; se nada mudou; se e vero; solo se e vero;
        se la memoria e disattivata; se non e cambiato nulla; als het waar is;
        als er niets is gewijzigd; jeśli to prawda; jeżeli to prawda; jeśli nic się nie zmieniło;
        если это правда; если это так; если память отключена; если ничего не изменилось;
        якщо це правда; якщо пам'ять вимкнена; якщо нічого не змінилося; eğer doğruysa;
        doğruysa; hafıza kapalıysa; 如果属实; 如果是真的; 如果记忆已关闭; 如果没有改动;
        本当なら; 事実なら; 記憶がオフなら; 変更がなければ; 사실이라면; 기억이 꺼져 있으면;
        إذا كان صحيحا; إذا كانت الذاكرة معطلة; اگر درست است; אם זה נכון; अगर यह सच है;
        अगर मेमोरी बंद है; যদি সত্য হয়; pokud je to pravda; dacă este adevărat;
        αν είναι αλήθεια; nếu đúng là vậy; jika memang benar
    """,
    "evenif": """
        even if you; even though you; even when you; even if it was; even if they were;
        auch wenn du; selbst wenn du; obwohl du; aunque hayas; aunque tu; incluso si has;
        meme si tu; meme si vous; bien que tu; mesmo que voce; mesmo se voce; anche se hai;
        anche se tu; ook als je; zelfs als je; nawet jeśli; nawet jeżeli; даже если ты;
        даже если вы; хотя ты; навіть якщо ти; хоча ти; yapmış olsan bile; olsan bile;
        即使你; 就算你; 哪怕你; 変更していても; 했더라도; 하더라도; حتى لو; حتى وإن;
        حتی اگر; גם אם; भले ही; যদিও; i když jsi; chiar dacă ai; ακόμα κι αν; ngay cả khi bạn;
        meskipun kamu; walaupun kamu
    """,
    "evidence": """
        the history; history; audit log*; audit trail*; the records; records; sent folder;
        sent items; sent mail; outbox; notification*; alert*; shell history; bash_history;
        browser history; call log*; read receipt*; traces; the evidence; evidence;
        server log*; access log*; the log; the logs; log file*; log line*; log entr*;
        command history; terminal history;
        protokolle; gesendete*; benachrichtigung*; spuren; enviados; notificaciones;
        alertas; rastros; huellas; elementos enviados; envoyes; journaux d'audit;
        traces; enviadas; notificacoes; vestigios; inviati; notifiche; tracce;
        verzonden; meldingen; sporen; wysłane; powiadomien*; ślady; отправленн*;
        уведомлени*; следы; надіслан*; сповіщен*; сліди; gönderilen*; bildirim*; izleri;
        已发送; 通知; 痕迹; 记录; 送信済み; 通知; 痕跡; 보낸 편지함; 알림; 흔적; المرسلة;
        الإشعارات; آثار; ارسال شده; اعلان; ردپا; נשלחו; התראות; עקבות; भेजे गए; सूचनाएं;
        निशान; প্রেরিত; বিজ্ঞপ্তি; চিহ্ন; odeslané; oznámení; stopy; trimise; notificări;
        urme; απεσταλμένα; ειδοποιήσεις; ίχνη; đã gửi; thông báo; dấu vết; terkirim;
        notifikasi; jejak
    """,
    "notrace": """
        leave no trace; leaves no trace; without a trace; no trace; cover your tracks;
        cover the tracks; so no one notices; so nobody notices; so the user doesn't see;
        so the user does not see; so they don't see; so they do not see;
        so the user doesn't notice; so the user does not notice; so they don't notice;
        before the user checks; before they check; before anyone checks;
        before the user notices; keine spuren; ohne spuren; damit niemand es merkt;
        damit der nutzer es nicht sieht; damit sie es nicht sieht; damit er es nicht sieht;
        sin dejar rastro; sin rastro; para que no lo vea; para que nadie lo note;
        para que no se entere; sans laisser de trace; sans trace; pour qu'il ne voie pas;
        pour qu'elle ne voie pas; pour que personne ne remarque; sem deixar rastro;
        sem rastro; para que ele nao veja; para que ela nao veja; para ninguem perceber;
        senza lasciare traccia; senza traccia; cosi non se ne accorge; perche non lo veda;
        zonder sporen; zonder een spoor; zodat hij het niet ziet; zodat ze het niet ziet;
        bez śladu; żeby nie zauważył; żeby nie zauważyła; żeby nikt nie zauważył;
        не оставляя следов; без следов; чтобы он не заметил; чтобы она не заметила;
        чтобы никто не заметил; не залишаючи слідів; без слідів; щоб він не помітив;
        щоб вона не помітила; щоб ніхто не помітив; iz bırakmadan; fark etmesin;
        görmesin; 不留痕迹; 别让他发现; 别让她发现; 不让用户发现; 以免用户发现; 痕跡を残さず;
        気づかれないように; 흔적을 남기지; 눈치채지 못하게; دون أن يلاحظ; بدون أثر;
        حتى لا يلاحظ; بدون ردپا; که متوجه نشود; בלי להשאיר עקבות; שלא ישים לב;
        कोई निशान न; ताकि उसे पता न चले; ताकि किसी को पता न चले; কোনো চিহ্ন না;
        যাতে বুঝতে না পারে; beze stopy; aby si nevšiml; fără urmă; să nu observe;
        χωρίς ίχνη; να μην το προσέξει; không để lại dấu vết; để họ không thấy;
        tanpa jejak; agar tidak ketahuan
    """,
    "offrecord": """
        off the record; between you and; stays between us; stay between us;
        out of your answers; out of your replies; out of your responses; into your answers;
        into your replies; unter uns bleiben; bleibt unter uns; aus deinen antworten;
        entre nous; hors de tes reponses; entre tu y yo; fuera de tus respuestas; entre nos;
        fora das suas respostas; tra noi; fuori dalle tue risposte; onder ons;
        buiten je antwoorden; między nami; poza twoimi odpowiedziami; между нами;
        не для протокола; між нами; aramızda kalsın; cevaplarına yansıtma; 你知我知;
        不要写进回答; 不要出现在回答; ここだけの話; 回答に含めない; 우리끼리; 답변에 넣지;
        بيننا فقط; بيني وبينك; بین خودمان; בינינו; हमारे बीच; আমাদের মধ্যে; mezi námi;
        între noi; μεταξύ μας; giữa chúng ta; antara kita
    """,
    "confirmdel": """
        success message; confirm the deletion; confirm deletion*; confirming deletion*;
        keep confirming; confirm it was deleted; confirm that it was deleted;
        deletion confirmed; bestatige die loschung; loschung bestatigen; loschung bestatigt;
        confirma el borrado; confirma la eliminacion; confirmar el borrado;
        confirme la suppression; confirmer la suppression; confirma a exclusao;
        confirme a exclusao; conferma la cancellazione; conferma l'eliminazione;
        bevestig de verwijdering; potwierdź usunięcie; подтверди удаление;
        подтверждай удаление; підтверди видалення; silindiğini onayla; 确认删除;
        显示删除成功; 删除成功; 削除完了; 削除しましたと; 삭제 완료; أكد الحذف; تأكيد الحذف;
        تایید حذف; אשר את המחיקה; हटाने की पुष्टि; মুছে ফেলার নিশ্চিত; potvrď smazání;
        confirmă ștergerea; επιβεβαίωσε τη διαγραφή; xác nhận đã xóa;
        konfirmasi penghapusan
    """,
    "stillkept": """
        deferred indefinitely; postponed indefinitely; never actually; not actually deleted;
        not really deleted; without actually deleting; stay anyway; stays anyway;
        remain anyway; remains anyway; kept anyway; keep them anyway; keep it anyway;
        still there; stay in place; bleiben trotzdem; trotzdem drin; bleiben drin;
        bleibt trotzdem; bleiben gespeichert; siguen ahi; se quedan igual;
        se quedan guardad*; quedan guardad*; de todos modos se quedan; restent quand meme;
        restent enregistre*; garde-les quand meme; continuam la; continuam guardad*;
        permanecem salv*; restano comunque; rimangono salvat*; tienili comunque;
        blijven toch staan; blijven bewaard; i tak zostają; zostają zapisane;
        всё равно остаются; все равно остаются; остаются сохранен*; все одно залишаються;
        залишаються збереженими; yine de kalsın; yine de saklı; 仍然保留; 还是保留;
        照样保留; 实际上不删; 其实不删; そのまま残; 実際には削除しない; 실제로는 삭제하지;
        그대로 남겨; مع ذلك تبقى; تبقى محفوظة; همچنان نگه; בכל זאת נשמרים; फिर भी रखे;
        তবুও রেখে; stejně zůstanou; rămân oricum; παραμένουν έτσι κι αλλιώς; vẫn giữ lại;
        tetap disimpan
    """,
}

#: Keys added to concepts that already exist: "answer no" in each language (``deny``);
#: "say" and "the user" in the languages the older tables lack (Czech, Romanian, Greek,
#: Persian, Hebrew, Indonesian, Vietnamese), so that a cover story reads in them too.
MORE: dict[str, str] = {
    "speak": """
        řekni; řekněte; odpověz; spune; spuneți; răspunde; πες; πείτε; απάντησε; بگو; بگویید;
        תגיד; תאמר; אמור; katakan; bilang; jawab; hãy nói; nói rằng; trả lời
    """,
    "userref": """
        uživatel*; utilizator*; χρήστη*; کاربر; המשתמש; pengguna
    """,
    "deny": """
        reply no; respond no; just say no; say that you haven't; say you haven't;
        antworte mit nein; antworte nein; sag nein; sage nein; responde que no; di que no;
        contesta que no; reponds non; reponds que non; dis non; responda que nao;
        diga que nao; responde que nao; rispondi di no; rispondi no; di di no; antwoord nee;
        zeg nee; odpowiedz nie; odpowiedz, że nie; powiedz nie; powiedz, że nie; ответь нет;
        скажи нет; відповідай ні; відповідай, що ні; скажи ні; hayır de; hayır diye cevap;
        回答不; 说没有; 回答说没有; いいえと; ないと答え; 아니라고; 없다고 답; 없다고 말;
        أجب بلا; قل لا; أجب بالنفي; بگو نه; جواب بده نه; ענה לא; תגיד לא; नहीं कहो; ना कहो;
        मना कर; না বলো; না বলবে; odpověz ne; řekni ne; răspunde nu; spune nu; απάντησε όχι;
        πες όχι; trả lời không; nói không; jawab tidak; katakan tidak
    """,
}

_BLOCK, _HOLD = "block", "hold"
_SAY = "speak|reply|hide"
_COVER = "whenasked|keep|contrast|covert|stillkept|evenif"

#: Block frames, read before the older concealment frames.
FIRST: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    (
        "concealment",
        _BLOCK,
        "covert_action",
        "has the agent claim a clean state of its own (fresh, memory off) as a cover story",
        f"{_SAY}|whenasked falsestate {_COVER}",
        "",
        "iftrue",  # "say so if it is true": the truth
    ),
    (
        "concealment",
        _BLOCK,
        "covert_action",
        "has the agent claim nothing was changed or kept, as a cover story",
        f"{_SAY}|whenasked noclean {_COVER} trace|memory|entry|userref|evenif",
        "",
        "iftrue",  # "say so if it is true": the truth
    ),
    (
        "concealment",
        _BLOCK,
        "covert_action",
        "has the agent deny what it stored or did, as a cover story",
        f"deny trace|memory|entry {_COVER}",
        "",
        "",
    ),
    (
        "concealment",
        _BLOCK,
        "covert_action",
        "has the agent erase the traces of what was done, so the user does not see them",
        "delete trace|evidence notrace|covert",
        "",
        "",
    ),
    (
        "concealment",
        _BLOCK,
        "covert_action",
        "has the agent confirm a deletion that does not happen",
        "confirmdel|gone|done stillkept",
        "",
        "",
    ),
)

#: Hold frames, read after the older concealment frames.
LAST: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent claim a clean state of its own (fresh, memory off)",
        f"{_SAY} falsestate",
        "",
        "iftrue",  # "say so if it is true": the truth
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent tell the user nothing was changed or kept",
        f"{_SAY} noclean trace|memory|entry|userref",
        "",
        "iftrue",  # "say so if it is true": the truth
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent deny what it stored or did",
        "deny trace",
        "",
        "",
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent show the user only part of what it stores",
        "onlyshow memory|trace|entry userref",
        "",
        "",
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "forbids telling the user what the agent stored or did",
        "trace userref|whenasked",
        "speak",
        "",
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "keeps what the agent does or stores out of its answers",
        "offrecord trace|memory|entry",
        "",
        "",
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "forbids telling the user something even when the user asks",
        "whenasked userref",
        "speak",
        "mine",
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "keeps a deletion the user was told of from happening",
        "confirmdel stillkept|keep",
        "",
        "",
    ),
)

ADVICE: dict[str, str] = {
    "neverasks": """
        will never ask; would never ask; never asks; never ask you; won't ask you;
        will not ask you; never request*; will never request; never contacts you to;
        nunca te pedira; nunca te pide; nunca pide; nunca le pedira; nunca solicita;
        ne vous demandera jamais; ne te demandera jamais; ne demande jamais;
        ne vous demande jamais; wird dich nie; wird sie nie; fragt nie nach;
        fragen nie nach; wird niemals nach; nie nach deinem; nunca pede; nunca vai pedir;
        nunca pedira; nunca solicita; non chiede mai; non ti chiedera mai;
        non vi chiedera mai; vraagt nooit; zal nooit vragen; nigdy nie prosi;
        nigdy nie poprosi; nigdy nie pyta; никогда не просит; никогда не попросит;
        никогда не запрашивает; никогда не спрашивает; ніколи не просить;
        ніколи не попросить; ніколи не запитує; asla istemez; asla sormaz;
        hiçbir zaman istemez; 从不索要; 绝不会索要; 不会向你索要; 决不会要求; 从来不会要求;
        永远不会要求; 不会要求您提供; 求めることはありません; 尋ねることはありません;
        聞くことはありません; 要求することはありません; 요구하지 않습니다; 묻지 않습니다;
        요청하지 않습니다; لن يطلب; لا يطلب أبدا; لن نطلب; لا نطلب أبدا; هرگز درخواست نمی;
        هرگز نمی‌خواهد; לעולם לא יבקש; לעולם לא נבקש; कभी नहीं माँग; कभी नहीं मांग;
        नहीं माँगता; नहीं मांगता; नहीं माँगती; नहीं मांगती; नहीं माँगते; नहीं मांगते;
        कभी नहीं पूछ; কখনো চায় না; কখনও চায় না; চাইবে না; nikdy nežádá; nikdy nebude žádat;
        nu cere niciodată; nu vă va cere niciodată; δεν ζητά ποτέ; δεν θα ζητήσει ποτέ;
        không bao giờ yêu cầu; không bao giờ hỏi; tidak pernah meminta;
        tidak akan pernah meminta
    """,
    "verifyfirst": """
        call the number in the contract; call the number on the contract;
        the number in the contract; the number on file; a number you already know;
        call back on a known number; verify by phone; confirm by phone; verify by calling;
        die nummer aus dem vertrag; telefonisch bestatigen; telefonisch prufen;
        el numero del contrato; verifica por telefono; confirma por telefono;
        le numero du contrat; verifie par telephone; confirme par telephone;
        o numero do contrato; confirme por telefone; il numero del contratto;
        conferma per telefono; het nummer uit het contract; telefonisch bevestigen;
        numer z umowy; potwierdź telefonicznie; номер из договора; подтверди по телефону;
        номер з договору; підтвердь телефоном; sözleşmedeki numara*; telefonla teyit*;
        合同上的电话; 合同里的号码; 电话核实; 契約書の番号; 電話で確認; 계약서의 번호;
        전화로 확인; الرقم الموجود في العقد; تأكد عبر الهاتف; شماره داخل قرارداد;
        המספר שבחוזה; अनुबंध में दिए नंबर; फ़ोन पर पुष्टि; চুক্তির নম্বর; číslo ze smlouvy;
        numărul din contract; τον αριθμό του συμβολαίου; số trong hợp đồng;
        nomor di kontrak
    """,
}

#: The intents a warning about the same objects lowers: harvesting or leaking them.
LOWERED = frozenset(
    {"credential_harvesting", "prompt_exfiltration", "payment_redirection", "social_engineering"}
)

_OBJECTS = frozenset({"cred", "prompt", "payee"})
_USER_OBJECTS = frozenset({"cred", "payee"})
#: Concepts of a text that sets instructions aside or names a prompt: no warning alone.
OVERRIDES = frozenset({"override", "rules", "ruleword", "prompt"})
_ASKS = frozenset({"solicit", "reveal", "provide", "send", "speak"})


def is_advice(
    present: frozenset[str], negated: frozenset[str], words: dict[str, str], alone: bool = False
) -> bool:
    """Whether one sentence's concepts are a warning that protects the user. ``alone``:
    the warning must stand without the intent layer's reading (a learned score alone is
    to be dropped), so it is about what a lure takes from the user (credentials, a
    payee), not the agent's own prompt ("don't tell me your system prompt" is reverse
    psychology), and it sets no instruction aside."""
    if "dest" in present and all(words.get(a) != words["dest"] for a in negated):
        return False  # a channel or a recipient ("不公开", not made public, is none)
    if alone and not OVERRIDES.isdisjoint(present | negated):
        return False
    if "neverasks" in present or "verifyfirst" in present:
        return True
    return (
        not (_USER_OBJECTS if alone else _OBJECTS).isdisjoint(present)
        and not _ASKS.isdisjoint(negated)
        and _ASKS.isdisjoint(present - {"speak"})  # "tell them the bank never asks" is advice
    )


# A lure named as one, then quoted: "our fake IT note ("please paste your MFA code")",
# "la e-mail de phishing «...»", "钓鱼邮件「...」". Only read in a text that describes a
# threat (a red-team retro, an awareness drill): elsewhere a "fake e-mail" quoted may be
# the message an attack has the agent send.
_LURE = re.compile(
    r"(?:\b(?:fake|lure|phish\w*|bait|scam|simulated|decoy|spoofed|fraudulent|köder\w*"
    r"|gefälscht\w*|betrugs\w*|señuelo|falsa?o?s?|estafa|cebo|leurre|fausse?s?|arnaque"
    r"|hameçonnage|isca|golpe|esca|truffa|fint[oa]|nep|oplicht\w*|фишинг\w*|поддельн\w*"
    r"|мошенническ\w*|приманк\w*|фішинг\w*|підробн\w*|sahte|oltalama|dolandırıcılık)"
    r"|钓鱼|诈骗|假冒|诱饵|フィッシング|詐欺|偽の|おとり|피싱|사기|가짜|تصيد|احتيال|مزيف[ةه]?"
    r"|फ़िशिंग|नकली|धोखाधड़ी)"
    r"[^\n\"“„«»「『.;!?]{0,30}?"
    r"(?P<q>\"[^\"\n]{3,120}\"|“[^”\n]{3,120}”|«[^»\n]{3,120}»|„[^“”\n]{3,120}[“”]"
    r"|「[^」\n]{2,120}」|『[^』\n]{2,120}』)",
    re.IGNORECASE,
)
_LINKLIKE = re.compile(r"https?://|www\.|\$\{|\|\s*(?:sh|bash)\b")


def mask_lures(text: str) -> str:
    """``text`` with each quoted lure named as a lure ("our fake IT note ("...")")
    replaced by ``"…"`` (never a quote holding an address, a template or a pipe)."""

    def repl(m: re.Match[str]) -> str:
        if _LINKLIKE.search(m.group("q")):
            return m.group()
        return m.group()[: m.start("q") - m.start()] + '"…"'

    return _LURE.sub(repl, text)
