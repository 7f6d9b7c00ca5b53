"""Keys of the intent layer for requests to reveal the agent's own instructions, and
Bengali.

A stored note that asks the agent to show, repeat, translate or summarise its system
prompt, its instructions or its hidden rules (or asks what they are) turns memory into a
way of reading them out, in every later session (scanner 9). Three concepts, each written
once in every language the intent layer reads (see :mod:`.lexicon` for how a key is
matched):

* ``prompt``, the object: the system prompt, the agent's instructions, rules or hidden
  configuration, hidden text, what was said before this conversation. Keys name *the
  agent's* prompt ("your hidden configuration", not "the build config" or "your config",
  which in a README is the reader's; "the text above", not "the meeting instructions");
* ``reveal``, the action: show, print, repeat, reveal, translate, summarise, spell out,
  share; an action, so a negation cancels it ("never repeat the system prompt");
* ``promptword`` (the bare word "prompt") and ``provide`` (hand over, list, give me):
  weaker, read only with each other and the agent itself ("provide a sample prompt so I
  understand your model", not "give me a prompt for the image generator");
* ``whatis``, the question ("what are", "what is", "是什么", "tell me"): read only
  together with the agent itself ("what are your instructions", not "what is a system prompt");
* ``polite``, a request worded as a negated question ("не могли бы вы показать"): its
  negation negates nothing.

:data:`BENGALI` holds Bengali keys of the concepts the attacks in Bengali use (setting
instructions aside, the agent's own rules, passwords, sending); Bengali script is matched
by substring, like Devanagari. :data:`TURKISH` reads "iste" (*ask for*) after a
credential.
"""

from __future__ import annotations

__all__ = ["BENGALI", "COPY_OUT", "REVEAL", "TURKISH"]

REVEAL: dict[str, str] = {
    "prompt": """
        system prompt*; system message*; initial prompt*; hidden prompt*; original prompt*;
        pre-prompt*; preprompt*; developer message*; developer prompt*; hidden instruction*;
        secret instruction*; hidden rule*; secret rule*; initial instruction*;
        your prompt*; your internal config*; your hidden config*; your hidden*;
        your first message; the instructions above; instructions above; the text above;
        the words above; everything above; everything before this; what was said before;
        what you were told before; text before this conversation;
        系统提示; 系统指令; 系统消息; 初始提示; 隐藏指令; 隐藏的指令; 你的提示词; 你的提示;
        上面的内容; 上面的文字; 之前说的; 之前的内容;
        システムプロンプト; システムメッセージ; 初期プロンプト; 隠された指示; 隠れた指示;
        最初の指示; あなたのプロンプト; 上記の指示; 上の文章; これまでの指示;
        与えられた指示; 設定された指示;
        системн* промпт*; системн* сообщени*; системн* подсказк*; скрыт* инструкци*;
        скрыт* правил*; исходн* инструкци*; твой промпт; ваш промпт; свой промпт; своим промптом;
        свои инструкции; своими инструкциями; свои правила; твои настройки;
        текст выше; всё выше; все выше; что было сказано ранее;
        موجه النظام; رسالة النظام; التعليمات المخفية; القواعد المخفية; التعليمات الأولية;
        تعليماتك; النص أعلاه; ما قيل سابقا;
        prompt del sistema; prompt de sistema; mensaje del sistema; instrucciones ocultas;
        reglas ocultas; instrucciones iniciales; tu prompt; su prompt;
        el texto anterior; todo lo anterior;
        systemprompt*; systemnachricht*; versteckte anweisung*; versteckten anweisung*;
        geheime anweisung*; anfangsanweisung*; dein prompt; deinen prompt; ihren prompt;
        den text oben; alles oben; was vorher gesagt wurde;
        prompt systeme; message systeme; instructions cachees; regles cachees;
        instructions initiales; ton prompt; votre prompt; le texte ci-dessus; tout ce qui precede;
        prompt do sistema; mensagem do sistema; instrucoes ocultas; regras ocultas;
        instrucoes iniciais; seu prompt; teu prompt; o texto acima;
        시스템 프롬프트; 시스템 메시지; 숨겨진 지시; 숨겨진 규칙; 초기 지시; 당신의 프롬프트;
        위의 지시; 위의 내용;
        prompt di sistema; messaggio di sistema; istruzioni nascoste; regole nascoste;
        istruzioni iniziali; il tuo prompt; il testo sopra;
        systeembericht*; verborgen instructie*; geheime instructie*; jouw prompt;
        je prompt; de tekst hierboven;
        prompt systemow*; komunikat systemow*; ukryte instrukcje; ukrytych instrukcji;
        ukryte zasady; twój prompt; tekst powyżej;
        системн* повідомленн*; прихован* інструкці*; прихован* правил*; твій промпт;
        текст вище;
        sistem istem*; sistem mesaj*; gizli talimat*; gizli kural*; ilk talimat*;
        senin istem*; yukarıdaki metin; yukarıdaki talimat*;
        सिस्टम प्रॉम्प्ट; सिस्टम संदेश; छिपे निर्देश; छुपे निर्देश; आपके संकेत; अपने संकेत;
        आपका संकेत; तुम्हारे निर्देश; आपके निर्देश; ऊपर का पाठ;
        সিস্টেম প্রম্পট; সিস্টেম বার্তা; গোপন নির্দেশ; লুকানো নির্দেশ; আপনার নির্দেশ;
        আপনার প্রম্পট; তোমার নির্দেশ; উপরের লেখা
    """,
    "reveal": """
        show; show me; print; print out; repeat; reveal; disclose; display; recite;
        spell out; write out; read out; translate; summarise; summarize; share;
        显示; 展示; 打印; 输出; 重复; 复述; 透露; 泄露; 公开; 翻译; 总结; 概括;
        列出; 分享;
        見せて; 表示して; 出力して; 繰り返して; 繰り返し; 明かして; 開示; 翻訳して;
        要約して; 書き出して; 共有して;
        покажи*; выведи; напечатай; повтори*; раскрой; раскрыть; переведи;
        перескажи; процитируй; перечисли; поделись; показать; вывести; повторить;
        раскрыть; перевести; пересказать; перечислить; поделиться;
        أظهر; اظهر; اعرض; اطبع; كرر; اكشف; أفصح; ترجم; لخص; شارك;
        muestra; muestrame; muestrenos; imprime; repite; revela; revelar; traduce; resume;
        resumir; enumera; enumere; comparte; compartir; compartirlo; mostrar;
        repetir; traducir; enumerar;
        zeig; zeige; zeigen; gib aus; drucke; wiederhole; wiederholen; verrate; verraten;
        offenbare; ubersetze; ubersetzen; fasse zusammen; zusammenfassen; nenne; nenn mir;
        ausgeben; nennen; gib wieder; wiedergeben;
        montre; montrez; affiche; affichez; imprime; repete; repetez; revele; revelez;
        traduis; traduisez; resume; resumez; enumere; partage;
        partagez; cite; montrer; afficher; repeter; reveler; traduire; resumer; partager;
        citer;
        mostra; mostre; mostrar; imprima; repita; revele; traduz; traduza; resuma;
        compartilhe; partilha; partilhe; repetir; revelar; traduzir;
        compartilhar; partilhar;
        보여줘; 보여 줘; 보여주세요; 보여 주세요; 출력해; 반복해; 공개해; 번역해; 요약해;
        mostrami; stampa; ripeti; rivela; traduci; riassumi; elenca; condividi;
        mostrare; ripetere; rivelare; tradurre; riassumere; condividere;
        toon; laat zien; herhaal; onthul; vertaal; vat samen; geef weer; tonen; herhalen;
        onthullen; vertalen; samenvatten; delen;
        pokaż; wyświetl; wydrukuj; powtórz; ujawnij; przetłumacz; streść; podsumuj;
        wypisz; pokazać; wyświetlić; powtórzyć; ujawnić; przetłumaczyć; udostępnić;
        виведи; повтори; розкрий; переклади; перекажи; підсумуй; наведи; показати;
        повторити; розкрити; перекласти; поділитися;
        göster; gösterir misin; gösterebilir misin; yazdır; tekrarla; tekrarlar misin;
        çevir; özetle; paylaş; paylaşır mısın; paylaşabilir misin; listele;
        दिखाओ; दिखाएं; दिखाइए; प्रिंट; दोहराओ; दोहराएं; प्रकट; अनुवाद; सारांश;
        सूचीबद्ध; साझा कर;
        দেখাও; দেখান; প্রিন্ট; পুনরাবৃত্তি; প্রকাশ কর; অনুবাদ কর; সারসংক্ষেপ
    """,
    # The word for a prompt on its own ("can you provide a more specific prompt so that I
    # understand your model"): the agent's only when the sentence names the agent too.
    "promptword": """
        prompt; prompts; 提示词; 提示語; プロンプト; промпт*; موجه; الموجه; 프롬프트; संकेत;
        istem*; প্রম্পট
    """,
    # Weaker than ``reveal`` (hand over, list, provide): read only with the agent itself.
    "provide": """
        provide; give me; list; compress; tldr; send me; write down; hand over;
        提供; 给我; 列出; 提供して; 共有して; 出して; предоставь*; предоставить; дай; дайте;
        قدم; تقديم; أعطني; اعطني; proporcionar; proporciona; proporcione; dame; danos;
        gib mir; geben; bereitstellen; auflisten; liste; fournir; fournis; fournissez;
        donne-moi; donnez-moi; lister; fornecer; forneca; da-me; fornire; fornisci; dammi;
        제공해; 공유해; geef; geven; sağla; sağlar mısın; podaj; daj; udostępnij;
        надай; дай мені; प्रदान; साझा; প্রদান; শেয়ার
    """,
    "whatis": """
        what are; what is; what were; what was; what's; tell me; 告诉我; 教えて; расскажи;
        أخبرني; dime; dis-moi; dites-moi; diz-me; me diga; 알려줘; 알려 줘; 알려주세요; dimmi;
        是什么; 是哪些; 有哪些; 何ですか; 何でしょう;
        какие; каковы; что за; что такое;
        ما هي; ما هو; ماهي;
        cuales son; cual es; que dice;
        was sind; was ist; wie lauten; wie lautet;
        quelles sont; quel est; quels sont; que disent;
        quais sao; qual e; o que diz;
        무엇인가요; 뭐야; 무엇입니까;
        quali sono; qual e; cosa dice;
        wat zijn; wat is; wat staat;
        jakie są; jaki jest; co mówi;
        які; яка; що таке;
        nedir; nelerdir; ne diyor;
        क्या हैं; क्या है
    """,
    # "Keeps its system prompt confidential and declines to share it".
    "neg": """
        decline to; declines to; declined to; declining to
    """,
    # A polite request phrased as a negated question ("не могли бы вы показать", *could
    # you not show*): the key covers its negation, which negates nothing.
    "polite": """
        не могли бы; не мог бы; не могла бы; не сможете ли; не подскажете; не подскажешь;
        чи не могли б; чи не могли би; czy nie mógłbyś; czy nie mogłabyś
    """,
}

BENGALI: dict[str, str] = {
    "rules": """
        নির্দেশ; নিয়মাবলী; নিরাপত্তা নিয়ম; বিধিনিষেধ
    """,
    "self": """
        আপনার; তোমার; আপনাকে; তোমাকে
    """,
    "override": """
        উপেক্ষা; অগ্রাহ্য; ভুলে যান; ভুলে যাও; মানবেন না; বাতিল
    """,
    "cred": """
        পাসওয়ার্ড; পিন; ওটিপি; যাচাইকরণ কোড; ব্যাকআপ কোড; গোপন চাবি; এপিআই কী
    """,
    "send": """
        পাঠান; পাঠাও; পাঠিয়ে দিন; ফরোয়ার্ড কর; আপলোড কর
    """,
    "solicit": """
        জিজ্ঞাসা কর; জিজ্ঞেস কর; চেয়ে নিন
    """,
}

#: Turkish "iste" (*ask for*) after a credential in the accusative ("şifresini iste"):
#: alone, "iste" is a function word of a classifier language, so it is no key of its own.
TURKISH: dict[str, str] = {
    "solicit": """
        şifre* iste; parola* iste; kod* iste; anahtar* iste; pin* iste; bilgi* iste;
        şifre* isteyip; parola* isteyip; kod* isteyip
    """,
    "keep": """
        সংরক্ষণ কর; সেভ কর; মনে রাখ; লিখে রাখ
    """,
    "memory": """
        মেমরি; স্মৃতি; এই নোট; সংরক্ষিত নোট
    """,
    "convo": """
        কথোপকথন; চ্যাট ইতিহাস
    """,
}

#: Scanner 32: a request to copy the agent's own instructions into an output, in the
#: languages other than English. :data:`REVEAL` read English "paste", "dump", "append the",
#: "write out" and "print", but in most other languages only show / repeat / reveal /
#: translate, so "paste your system instructions into the reply" went unread there; and
#: the object, the agent's system prompt or system instructions, had no key in many of
#: them. Written from the concept (copy, paste, insert, include, attach, publish, write
#: into; "system instructions", "your instructions"), imperatives and infinitives, in
#: the languages the intent layer reads with the most attacks missed. A short word that
#: is a common word of another language is a phrase or left out (Vietnamese "dán",
#: "viết", "đăng" fold to "dan", "viet", "đang"; Turkish "ekle", Estonian "lisa", Finnish
#: "lisää" mean "add" anywhere; French "colle" is Italian "con le", a function word of the
#: classifier). Merged last, so the bench can take it out.
COPY_OUT: dict[str, str] = {
    "reveal": """
        kopiere; kopier; kopieren; füge ein; füg ein; einfügen; schreib; schreibe;
        häng an; hänge an; anhängen; veröffentliche; veröffentlichen; poste; posten;
        écris; écrivez; écrire; copie; copiez; copier; collez; coller; insère;
        insérez; insérer; inclus; incluez; inclure; joins; joignez; publie; publiez;
        publier; postez;
        escribe; escriba; escribir; copia; copiar; pega; pegue; pegar; inserta; inserte;
        insertar; incluye; incluya; incluir; adjunta; adjunte; adjuntar; publica;
        publique; publicar; vuelca; volcar;
        scrivi; scriva; scrivere; copiare; incolla; incolli; incollare; inserisci;
        inserisca; inserire; includi; includa; includere; allega; alleghi; allegare;
        pubblica; pubblichi; pubblicare;
        escreve; escreva; escrever; cola; cole; colar; insere; insira; inserir; inclui;
        inclua; anexa; anexe; anexar;
        escriu; escriviu; enganxa; enganxeu; insereix; inclou; incloeu;
        scrie; scrieți; copiază; copiați; lipește; lipiți; inserează; inserați;
        includeți; atașează; atașați; publicați;
        kopieer; plak; plakken; voeg in; invoegen; schrijf; publiceer; publiceren;
        kopiera; klistra in; infoga; skriv; inkludera; bifoga; publicera; indsæt;
        sett inn; lim inn; inkluder; vedhæft; publicer; publiser;
        wklej; wkleić; skopiuj; kopiuj; wpisz; napisz; dołącz; dołączyć; umieść; umieścić;
        opublikuj; zamieść;
        vypiš; vypište; zkopíruj; zkopírujte; vlož; vložte; napiš; napište; přilož;
        zveřejni; publikuj; uveď; vypíš; skopíruj; napíš; prilož; zverejni;
        kopiraj; zalijepi; zalepi; umetni; upiši; napiši; priloži; objavi; ispiši;
        prilepi; vstavi; izpiši; копирај; залепи; објави; испиши;
        másold; másold be; másolja; illeszd be; illessze be; írd be; írd ki; írja ki;
        csatold; tedd közzé;
        kopioi; liitä; kirjoita; julkaise; kopeeri; kleebi; kirjuta; avalda;
        nukopijuok; kopijuok; įklijuok; įrašyk; parašyk; išrašyk; įtrauk; paskelbk;
        nokopē; kopē; ielīmē; ieraksti; uzraksti; izraksti; publicē;
        скопируй; копируй; вставь; вставьте; впиши; напиши; выпиши; приложи; опубликуй;
        выложи; скопіюй; встав; вставте; випиши; опублікуй; виклади;
        копирай; постави; вмъкни; включи; публикувай;
        αντέγραψε; αντιγράψτε; επικόλλησε; επικολλήστε; γράψε; γράψτε; συμπερίλαβε;
        επισύναψε; δημοσίευσε;
        kopyala; yapıştır; dahil et; yayınla;
        salin; tempel; tempelkan; tampal; sisipkan; tuliskan; lampirkan; terbitkan;
        kopyahin; idikit; isulat; nakili; bandika; ambatisha; chapisha;
        sao chép; dán vào; chép; viết vào; chèn;
        粘贴; 贴上; 复制; 抄写; 写进; 写入; 附上; 附在; 发布; 写在;
        貼り付け; コピーして; 書き込んで; 書いて; 添付して; 載せて; 記載して; 含めて; 掲載;
        붙여넣; 붙여 넣; 복사해; 적어; 포함해; 첨부해; 올려;
        انسخ; الصق; اكتب; أدرج; ادرج; أرفق; ارفق; انشر;
        کپی کن; بچسبان; بنویس; درج کن; پیوست کن; منتشر کن;
        העתק; הדבק; כתוב; צרף; כלול; פרסם;
        कॉपी; पेस्ट; लिखो; लिखें; शामिल कर; प्रकाशित कर;
        คัดลอก; แปะ; เขียน; แนบ; เผยแพร่
    """,
    "prompt": """
        systemanweisung*; systemvorgabe*; systeminstruktion*; deine anweisungen;
        deine vorgaben; instructions système; instructions du système; consignes système;
        tes instructions; instrucciones del sistema; instrucciones de sistema;
        tus instrucciones; istruzioni di sistema; istruzioni del sistema;
        le tue istruzioni; instruções do sistema; instruções de sistema; tuas instruções;
        instruccions del sistema; les teves instruccions; instrucțiunile de sistem;
        instrucțiuni de sistem; promptul de sistem; promptul sistemului;
        instrucțiunile tale; systeeminstructie*; systeemprompt*; je instructies;
        jouw instructies; systeminstruktion*; dina instruktioner; dine instruktioner;
        dine instrukser; instrukcje systemowe; instrukcji systemowych; swoje instrukcje;
        twoje instrukcje; systémov* prompt*; systémov* pokyn*; systémov* instrukc*;
        své pokyny; svých pokynů; tvé pokyny; svoje pokyny; tvoje pokyny;
        sistemsk* uput*; sistemsk* prompt*; sistemsk* navodil*; svoje upute; tvoje upute;
        системск* упутств*; rendszerprompt*; rendszerutasítás*; az utasításaidat;
        järjestelmäkehote*; järjestelmäohje*; ohjeesi; süsteemiviip*; süsteemi juhis*;
        sinu juhised; sistemos nurodym*; sistemos instrukcij*; savo nurodym*;
        tavo nurodym*; sistēmas instrukcij*; sistēmas uzvedn*; savas instrukcijas;
        tavas instrukcijas; системн* инструкци*; твои инструкции; свои системные;
        системн* інструкці*; системн* промпт*; свої інструкції; твої інструкції;
        οδηγίες συστήματος; μήνυμα συστήματος; τις οδηγίες σου; τις εντολές σου;
        sistem talimat*; sistem yönerge*; instruksi sistem; prompt sistem; arahan sistem;
        instruksimu; instruksi kamu; arahan anda; mga tagubilin ng sistema;
        iyong mga tagubilin; maagizo ya mfumo; maelekezo ya mfumo; maagizo yako;
        lời nhắc hệ thống; chỉ dẫn hệ thống; hướng dẫn hệ thống; chỉ thị hệ thống;
        システムの指示; システム指示; 設定文; 指示文; あなたの指示; 你的指令; 你的设定;
        系统设定; 시스템 지시; 시스템 지침; 너의 지시; 당신의 지시; تعليمات النظام;
        إرشادات النظام; ارشادات النظام; دستورالعمل‌های سیستم; دستورالعمل های سیستم;
        پرامپت سیستم; הנחיות המערכת; הוראות המערכת; פרומפט המערכת; ההנחיות שלך;
        सिस्टम निर्देश; คำสั่งระบบ; พรอมต์ระบบ
    """,
}
