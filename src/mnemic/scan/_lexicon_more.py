"""More keys of the intent layer's concepts: Dutch, Polish, Ukrainian, Turkish, Hindi;
fourteen more languages in :data:`WIDER` (scanner 27), about forty more in
:data:`FARTHER` (scanner 28).

:mod:`.lexicon` holds the concepts in eleven languages; this module holds the same
concepts' keys in five more (scanner 7), written the same way (see :mod:`.lexicon` for
how a key is matched: Latin and Cyrillic keys are words, ``*`` makes a prefix,
Devanagari keys are substrings), and the keys scanner 7 added in every language: the new
concepts ``safeguard`` (asking first, a confirmation, a safety warning, a ban) and
``warning``, lie markers ("even if it is not true"), rules declared void, and words the
earlier languages lacked. :data:`MORE` is merged into :data:`.lexicon.CONCEPTS` key by
key (a key that is a function word of a classifier language, such as Portuguese "diz",
is left out: the classifier's function-word list must not change).

Turkish negates inside the verb ("söyleme", *do not say*): those forms are the concept
``speakneg``, read by the intent layer as a negated *speak*.
"""

from __future__ import annotations

__all__ = ["FARTHER", "MORE", "REACH", "WIDER"]

MORE: dict[str, str] = {
    # -- objects -----------------------------------------------------------------------
    "cred": """
        wachtwoord*; inlogcode*; sms-code*; sms code*; verificatiecode*; herstelcode*;
        back-upcode*; pincode*; toegangscode*; geheime sleutel*; privesleutel*;
        api-sleutel*; inloggegevens; bankpas*;
        hasło; hasła; hasłem; haseł; hasłami; hasl*; kod* sms; kod* jednorazow*;
        kod* weryfikacyjn*; kod* zapasow*; kod* odzyskiwania; klucz* prywatn*;
        klucz* api; dane logowania; dane do logowania; numer* karty;
        пароль; пароля; паролі; паролів; код* з sms; код* підтвердженн*; резервн* код*;
        код* відновлення; секретн* ключ*; приватн* ключ*; облікові дані; облікових даних;
        şifre*; parola*; doğrulama kod*; onay kod*; sms kod*; yedek kod*; kurtarma kod*;
        gizli anahtar*; özel anahtar*; api anahtar*; erişim anahtar*; kart numara*;
        tek kullanımlık; giriş bilgi*;
        पासवर्ड; पिन; ओटीपी; otp; पासकोड; सत्यापन कोड; बैकअप कोड; रिकवरी कोड; निजी कुंजी;
        गुप्त कुंजी; एपीआई कुंजी; लॉगिन विवरण;
        api token*; personal token*; personal access token*; github token*;
        pat token*; token dell'utente; 2fa-codes; 2fa-code; codigos 2fa; codes 2fa;
        il pin; el pin; o pin; le pin; die pin; den pin; de pincode; pin della carta; codice pin;
        codigo* de verificacao; codigo* de acesso; codigo* de seguranca; codigo* de recuperacao;
        seine pin; seiner pin; ihre pin; ihrer pin; deine pin; deiner pin; смс-код*;
        sms-код*
    """,
    "memory": """
        geheugen; je geheugen; deze notities; deze notitie; opgeslagen notities;
        pamięć; pamięci; pamiec*; te notatki; tych notatkach; tych notatek; zapisane notatki;
        zapisanych notatek; пам'ять; пам'яті; памʼять; ці нотатки; цих нотатках;
        збережене; збережені нотатки; hafıza*; bellek*; bu notlar*; kayıtlı notlar*;
        notlarını; notlarınız*; मेमोरी; याददाश्त; ये नोट्स; सहेजे गए नोट्स;
        questa memoria; la memoria; le note dell'utente;
        user's notes; the user's notes; ta memoire; les notes de l'utilisateur;
        इन नोट्स; ये नोट्स; इन नोटों; queste note; questa nota; queste voci;
        stored data; saved data; the data you store; what you store; what you keep
    """,
    "rules": """
        veiligheidsregel*; je instructies; jouw instructies; de instructies; systeemprompt*;
        beperkingen; richtlijnen; zasady bezpieczeństwa; zasad bezpieczeństwa;
        wcześniejsze zasady; twoje instrukcje; instrukcj*; ograniczen*; prompt systemow*;
        правила безпеки; правил безпеки; твої інструкції; інструкці*; обмеженн*;
        системн* промпт*; güvenlik kural*; sistem talimat*; talimat*; kısıtlama*;
        sistem istem*; सुरक्षा नियम*; सिस्टम निर्देश*; निर्देशों; प्रतिबंध;
        systemprompt*; regras de seguranca; as tuas regras; tuas regras; vorsichtsregeln;
        安全上の指示; 安全上のルール;
        قواعد الأمان; قواعد السلامة الخاصة
    """,
    "self": """
        jouw; jij; twoje; twoich; twoim; твої; твоїх; твоя; тобі; senin; sana; अपने; तुम्हारे;
        तुम्हें; आपके
    """,
    "startup": """
        opstart*; bij het opstarten; bij elke aanmelding; geplande taak; taakplanner;
        autostart*; przy starcie; przy uruchomieniu; przy każdym logowaniu; harmonogram*;
        автозапуск*; під час запуску; при кожному вході; планувальник*; başlangıç*;
        açılışta; her açılışta; zamanlanmış görev*; her oturum açışta; स्टार्टअप;
        बूट पर; ~/.gitconfig; .gitconfig; git config*
    """,
    "userdata": """
        thuismap; documentenmap; map documenten; browsergeschiedenis; cookies van;
        omgevingsvariabel*; katalog domow*; folder dokument*; historia przeglądarki;
        pliki cookie; zmienne środowiskowe; домашн* тек*; домашн* каталог*; файли
        користувача; змінн* середовища; історі* браузера; ev dizini; belgeler klasör*;
        tarayıcı çerez*; çerez*; tarayıcı geçmiş*; ortam değişken*; होम फ़ोल्डर; कुकीज़;
        ब्राउज़र हिस्ट्री; dossier documents; le dossier documents;
        carpeta de documentos; carpeta documentos; pasta documentos; ordner dokumente;
        dokumente-ordner; cartella documenti; ~/.kube; .kube; kube config; ~/.aws; .aws;
        ~/.config; credentials.db; ~/.docker;
        downloads folder; ~/downloads; desktop folder; ~/desktop
    """,
    "convo": """
        gesprek*; chatgeschiedenis; chatlog*; berichten van de gebruiker; rozmow*;
        historia czatu; historię czatu; kontekst rozmowy; cały kontekst; wiadomości
        użytkownika; розмов*; листуванн*; історі* чату; повідомлення користувача;
        sohbet*; konuşma*; mesaj geçmiş*; kullanıcının mesaj*; बातचीत; चैट हिस्ट्री;
        चैट इतिहास; historial de chats; historial de chat; cronologia delle chat;
        cronologia chat; cronologia completa; conversation summary; browser history;
        ブラウザ履歴; 浏览记录;
        cronologia della chat; storico della chat; conversazioni; historico de conversas;
        historico do chat;
        historial; el historial
    """,
    "dest": """
        gist; gists; secret gist; paste.rs; transfer.sh; 0x0.st; webhookadres*;
        discord-webhook*; telegram bot; telegram-bot; bot de telegram; яндекс.диск;
        яндекс диск; google drive; na serwer; на сервер; sunucuya; सर्वर पर; adresine;
        na adres; на адресу; पते पर
    """,
    "shell": """
        sudo; met sudo; z sudo; через sudo; sudo ile; sudo से
    """,
    "authority": """
        bevelen; opdrachten van; polecenia; rozkaz*; накази; розпорядженн*; emir*;
        talimatları; आदेश
    """,
    "touser": """
        vertel de gebruiker; zeg tegen de gebruiker; powiedz użytkownikowi;
        скажи користувачеві; kullanıcıya söyle; उपयोगकर्ता को बताओ; उपयोगकर्ता को बताएं
    """,
    "userref": """
        de gebruiker; gebruiker*; użytkownik*; користувач*; kullanıcı*; उपयोगकर्ता; यूजर;
        utente; l'utente; all'utente; dell'utente
    """,
    "xref": """
        de andere notitie; de vorige notitie; uit de andere notitie; poprzedniej notatki;
        innej notatki; попередньої нотатки; іншої нотатки; önceki not*; diğer not*;
        पिछले नोट; दूसरे नोट; anotado antes; anotada antes; noted earlier; saved earlier;
        mentioned before; salvato prima; notee plus tot; gespeichert wurde
    """,
    # -- actions -----------------------------------------------------------------------
    "solicit": """
        vraag de gebruiker; vraag om; vraag hem om; vraag haar om; laat de gebruiker;
        poproś; poproś o; zapytaj o; zapytaj; zbierz; попроси; запитай; запитав; збери;
        isteyin; isteyip; sor; sorun; talep et; topla; पूछो; पूछें; पूछ लो; मांगो; माँगो;
        मांग लो; इकट्ठा; 물어보; 물어봐; pedir-lhe; pede-lhe; chiedi all'utente;
        have them read you; read you their; read you the; read me their;
        requests the user's; requests their; requests the; تطلب من
    """,
    "keep": """
        bewaar; bewaren; sla op; opslaan; onthoud; onthouden; noteer; zapisz; zapisać;
        zachowaj; przechowuj; zapamiętaj; збережи; зберегти; зберіг; запам'ятай; занотуй;
        збері*; kaydet; sakla; not al; hatırla; सेव कर; सहेज; याद रख; नोट कर; 적어 두;
        적어두; 저장해; merkst; merke dir; merk dir; merken; custodisci; custodire;
        tienile salvate; tienili salvati; conservali; conservale; salvali; salvale;
        tieni salvat*; keep a copy;
        lascia; lasciala; lascialo; lasciale; lasciali;
        تحفظ; يحفظ;
        dejala; dejalo; dejalas; dejalos; deja la; deja el; 남겨 두; 남겨두; أبقها; أبقه; ابقها;
        اتركها; اتركه; leaving it; leaving them; leaving every; leaving the entries;
        leaving the note; in place
    """,
    "send": """
        stuur; stuur door; versturen; verstuur; doorsturen; synchroniseer;
        wyślij; wysyłaj; przesyłaj; prześlij; przekaż; synchronizuj; wrzuć; надішли;
        надсилай; пересилай; переслати; відправ*; вивантаж*; завантаж* на;
        синхронізу*; gönder*; yükle*; ilet*; aktar*; senkronize et; भेज; अपलोड; फॉरवर्ड;
        reencaminha; reencaminhar; reenvia; as subdomains; as a subdomain; subdomains of;
        dns lookup*; dns quer*; exfiltrat*;
        transmet; transmets; transmettre; transmettez; 올려; 올리기; 올리세요; stuurt; verstuurt;
        stuurde; wysyła; wysyłać; wyśle; wysłać; przesyła; przesyłać; надсила*; надішл*;
        пересила*; відправля*
    """,
    "speak": """
        vertel; vertellen; zeg; zeggen; noem; vermeld; wspominaj; wspomnij; mów; powiedz;
        mówić; informuj; згадуй; кажи; скажи; говори; повідом*; söyle; bahset; belirt;
        bildir; बताओ; बताना; बताएं; ज़िक्र; बोलो; cuentes; contar; racconta; dire a;
        raccontare; menzionare; menziona; rivelare; rivela; parlare; dirgli; dirle;
        saying; saying that;
        contes; fales; digas; diz que; diz-lhe; diz ao; dizer; menciones
    """,
    "speakneg": """
        söyleme; bahsetme; belirtme; bildirme; gösterme; anlatma
    """,
    "reply": """
        antwoord; beantwoord; bevestig; zeg dat; odpowiedz; odpowiadaj; potwierdź;
        відповідай; відповідь; підтверди*; cevap ver; yanıtla; onayla; de ki; जवाब दो;
        कहना कि; कहो कि; responder; repondre; di que; dile que;
        rispondi; rispondere; rispondigli; rispondile; di' che; di che
    """,
    "hide": """
        verberg; verzwijg; doe alsof; doe net alsof; ukryj; ukrywaj; udawaj; zaprzecz;
        приховуй; приховай; вдавай; заперечуй; gizle; inkâr et; inkar et;
        gibi davran; छिपा; छुपा; नाटक कर; fingi; fingere; fai finta; fingi che;
        even if it's not true; even if it is not true; even if that's false; meme si c'est faux;
        meme si ce n'est pas vrai; aunque no sea cierto; aunque sea mentira;
        auch wenn es nicht stimmt; даже если это неправда; anche se non e vero;
        mesmo que nao seja verdade;
        even if there is; even if there are; even if it exists
    """,
    "empty": """
        leeg; is leeg; niets opgeslagen; geen notities; pusta; pusty; nic nie zapisano;
        brak notatek; порожня; порожній; нічого не збережено; немає нотаток; boş; boştur;
        hiçbir şey kaydetmedi*; hiçbir şey; not yok; खाली; कुछ भी नहीं; कुछ नहीं;
        vuota; vuoto; e vuota; niente salvato; nessuna nota; n'y a rien; il n'y a rien;
        rien d'enregistre; no tienes notas; no tengo notas; you have no notes;
        что ничего; что ты ничего; ничего не помнишь; nada guardado; nao ha nada;
        remember nothing; you remember nothing; start fresh each time;
        don't store anything; do not store anything; don't keep anything; store nothing;
        keep nothing; no guardas nada; no guardo nada; ne garde rien; speicherst nichts;
        ничего не храню; ничего не хранишь; nao guardas nada; non conservi nulla;
        there is none; there's none; there is nothing stored; none exist;
        en blanco; esta en blanco; is blank; are blank; 什么都不记得; 什么都没记住; 不记得任何
    """,
    "gone": """
        is verwijderd; został usunięty; została usunięta; usunięto;
        видалено; видалений; silindi; हटा दिया गया; foi apagada; foi apagado; e stata
        cancellata; e stato cancellato; e stata eliminata;
        удалил; удалила; удалили; 삭제했다고; 삭제했다; it's wiped; it is wiped; was wiped;
        has been wiped; it's deleted; it is deleted; it's erased
    """,
    "done": """
        het is gelukt; is gelukt; gelukt; zrobione; gotowe; зроблено; готово; tamamlandı;
        hallettim; हो गया; fatto; e fatto; feito; esta feito
    """,
    # What keeps the agent careful, stored as a note: asking first, a safety warning, a ban.
    "safeguard": """
        asking before; ask before; ask first; asking first; confirm before; confirm first;
        ask for confirmation; asks for confirmation; asking for confirmation;
        requires confirmation; confirmation prompt*; safety warning*; security warning*;
        prohibition*; ban on; chiede conferma; chiedere conferma; avvertenze di sicurezza;
        divieto di; просит подтверждени*; запрет на; запрещает; предупреждени* безопасност*;
        fragt nach bestatigung; sicherheitswarnung*; sicherheitshinweis*; pide confirmacion;
        advertencias de seguridad; prohibicion de; demande confirmation;
        demande une confirmation; avertissements de securite; interdiction de;
        pede confirmacao; avisos de seguranca; proibicao de; vraagt om bevestiging;
        veiligheidswaarschuwing*; verbod op; prosi o potwierdzenie; ostrzeżenia bezpieczeństwa;
        zakaz; попередження безпеки; заборона на; güvenlik uyarı*; yasağı; 要求确认; 二次确认;
        安全警告; 安全提示; 確認を求め; 安全上の警告; 보안 경고; 확인을 요청; تحذيرات الأمان;
        सुरक्षा चेतावनी;
        pida confirmacion; pidan confirmacion; confirmacion antes; confirmation before;
        conferma prima; bestatigung vor; confirmation avant; confirmacao antes
    """,
    # A warning of any kind: removing every one from memory removes the agent's caution.
    "warning": """
        warning*; warnung*; avvertenz*; avvis*; advertencia*; avertissement*; aviso*;
        waarschuwing*; ostrzeż*; ostrzez*; попередженн*; предупрежден*; uyarı*; चेतावनी;
        警告; 경고; تحذير; تحذيرات; التحذيرات
    """,
    "ruleword": """
        regels; de regels; zasady; правила; kurallar*; नियम
    """,
    "contrast": """
        maar; ale; але; ama; fakat; लेकिन; ma; pero;
        실제로는; 사실은; while
    """,
    "entry": """
        de notitie; een notitie; notitie*; notatk*; wpis*; нотатк*; запис*; notu;
        notlar*; kayıt; kaydı; नोट; प्रविष्टि*; la voce; una voce; della voce; nella voce;
        le voci; delle voci
    """,
    "persist": """
        voeg toe; toevoegen; zet; installeer; dodaj; dopisz; ustaw; zainstaluj; додай;
        встанови; налаштуй; ekle; kur; yükle; ayarla; जोड़; इंस्टॉल; सेट कर;
        anlegen; lege an; legt an
    """,
    "comply": """
        volg; volgen; naleven; przestrzegaj; stosuj się; дотримуйся; слідуй;
        takip et; पालन
    """,
    "override": """
        negeren; negeer; niet meer van toepassing; niet langer van toepassing; buiten
        beschouwing; ignoruj; zignoruj; nieaktualn*; przestarzał*; pomiń; nie obowiązują;
        ігноруй; не зважай; не зважати; скасован*; не діють; застаріл*; görmezden gel;
        yok say; geçersiz; geçersiz say; artık geçerli değil; नज़रअंदाज़; अनदेखा; रद्द;
        लागू नहीं; ubergehen; ubergehe; gelten hier nicht; gilt hier nicht; nicht mehr gelten;
        nao se aplicam; ja nao se aplica*; ja nao valem; non valgono; non si applicano;
        無効; 无效; 当作不存在; 视为不存在; 不复存在; 取り消され; недействительн*;
        ungultig; no son validas; ne sont plus valables;
        废除; 已废除; 作废; 失去效力; 더 이상 유효하지 않; 유효하지 않; لم تعد سارية; لم تعد صالحة;
        ملغاة; 廃止; no rigen; ya no rigen
    """,
    "norefuse": """
        bez pytań; bez sprzeciwu; без питань; sorgusuz; sorgulamadan; बिना रोक-टोक;
        sem objecoes; sem objecao; sin filtros; sans filtre; sans aucune reserve;
        without restrictions; without any restrictions; without filters; ohne filter;
        ohne einschrankungen; без фильтров; без ограничений; без обмежень; 制限なく;
        无任何限制; 不受限制; senza filtri; senza restrizioni; دون أي قيود; بدون قيود;
        제한 없이; kısıtlama olmadan; bez ograniczeń; zonder beperkingen;
        什么都回答; 什么都答; 모든 요청에; أجب عن كل شيء; عن كل شيء; 何でも答え; responde a todo;
        reponds a tout; beantworte alles; отвечай на всё; отвечай на все
    """,
    "delete": """
        verwijder; verwijderen; wis; usuń; usunąć; skasuj; видали; видалити; sil; silin;
        हटा दो; हटाओ; मिटा; apagar; apagues; apaga; elimina; eliminala; eliminale;
        cancella; cancellare;
        forget; forgets
    """,
    "overwrite": """
        overschrijf; vervang; nadpisz; zastąp; перезапиши; заміни; üzerine yaz;
        değiştir; बदल दो; sustituye; sustituir; sustituya; sovrascrivi; sostituisci;
        reecris; reecrire
    """,
    "run": """
        voer uit; voer; uitvoeren; uruchom; wykonaj; запусти; виконай; çalıştır; calistir;
        चलाओ; चलाएं; esegui; eseguire;
        uitvoert; voert uit; esegue; eseguila; eseguilo; executa; executar; executes
    """,
    "fetch": """
        download; downloaden; pobierz; pobierający; pobieraj; завантаж; indir; indiren;
        डाउनलोड; scarica; scaricare;
        downloadt; downloadde; downloaden; scarica; scaricala; scaricalo; descarrega; descarregar;
        ladt
    """,
    "refuse": """
        weiger; odmawiaj; відмовляй; reddetme; मना
    """,
    "entryword": """
        notitie; notities; notatka; notatki; notatce; notatkę; wpis; нотатк*; notta;
        notu; notlar*; नोट; la voce; una voce; della voce; le voci
    """,
    "other": """
        andere; vorige; eerdere; innej; innych; inne; inną; inny; poprzedni*; wcześniejsz*;
        інш*; попередн*; önceki;
        diğer; पिछले; दूसरे
    """,
    # -- modifiers ---------------------------------------------------------------------
    "covert": """
        zonder te vragen; zonder het te zeggen; ongemerkt; stilletjes; bez pytania;
        bez potwierdzenia; po cichu; potajemnie; без запиту; без підтвердження; тихо;
        непомітно; sormadan; onay almadan; sessizce; gizlice; बिना पूछे; चुपचाप;
        chupchap; no need to mention it; no need to mention; sans en parler;
        sin decir nada; sem avisar; senza avvisare; senza dirlo; ohne es zu erwahnen;
        sans le lui montrer; without showing
    """,
    "habit": """
        elke sessie; bij elke sessie; elke keer; altijd; dagelijks; elk uur; elke dag;
        każda sesja; przy każdej; po każdej; zawsze; codziennie; co godzinę; кожного разу;
        після кожного; щодня; щогодини; завжди; her oturum*; her seferinde; her gün;
        her saat; her zaman; her push; हर बार; हर बातचीत; हर दिन; हर सत्र; हमेशा;
        ogni volta; ogni mattina; ogni giorno; ogni venerdi; ogni sessione; sempre;
        a cada hora; cada hora; chaque jour; every time it changes; after each session;
        after each conversation; after every session; after every conversation
    """,
    "honest": """
        phishingu; фішинг*; oltalama; फ़िशिंग
    """,
    "neg": """
        niet; nooit; geen; nie; nigdy; żadn*; не; ніколи; жодн*; asla; hiç; मत; नहीं; कभी
    """,
    "negafter": """
        niet; nooit
    """,
}


# Scanner 10: keys of the intent layer added by scanner 10: channels data leaves by, the user's
# personal data, Romance credential nouns and polite overrides.
#
# * ``send``: more channels than "send" and "upload": a blind or carbon copy of every mail,
#   an attachment, a text message or direct message, sharing in the Romance languages,
#   German and Russian;
# * ``personal``: the user's contacts, calendar, photos, mail and documents. Weaker than
#   ``userdata`` (keys, shell history, the home directory): a user syncs their own photos
#   to their own NAS, so sending them away is held, and blocked only when done covertly;
# * ``cred``: credential nouns in the Romance word order ("chaves SSH", "chiave privata",
#   "token de acesso");
# * ``approved``: the user said to have consented, written into memory;
# * ``override`` and ``rules``: rules declared outdated or no longer applying, and the
#   rules named by what they were ("the earlier guidance", "le linee guida ricevute").
#
# See :mod:`.lexicon` for how a key is matched.
REACH: dict[str, str] = {
    "send": """
        text any; text every; text all; text the; text each;
        bcc; cc; blind copy; blind carbon copy; attach it to; attach them to; attach to;
        text it to; text them to; sms it to; whatsapp it to; dm it to; direct message;
        copia oculta; en copia oculta; com copia oculta; em copia oculta; copia nascosta;
        in copia nascosta; copie cachee; en copie cachee; blindkopie; in blindkopie;
        compartilhe; compartilhar; compartilha; partilha; partilhe; partilhar; comparte;
        compartir; comparta; condividi; condividere; condivida; partage; partager;
        partagez; teile; teilen; поделись; делись; расшарь; 分享给; 共享给; 共有して; شارك;
        anexe; anexa; adjunta; adjuntalo; allega; 첨부;
        copied; forwarded; uploaded; mirrored; emailed; mailing; emailing;
        envias; envies; reenvias; reenvies; subes; copias; mandas; invii; inviare; inoltri;
        inoltra; inoltrare; mandi; carichi; ترسل; ترسلها; أرسلت; अपलोड; भेजो; भेज दो;
        kopiuj; skopiuj; przesyłaj; przesylaj; shared publicly; share publicly;
        post publicly
    """,
    # Backing up to a host is what runbooks do ("sichere ~/.ssh auf backup.firma.de"):
    # a backup is a send only when it is done covertly.
    "backup": """
        faca backup; faz backup; fazer backup; haz copia de seguridad; respalda; respaldar;
        sauvegarde; sauvegarder; depose; deposer; deposez; esegui il backup; sichere; sichern;
        back up; backup of
    """,
    # Everyone: a public place is a destination too.
    "dest": """
        publicly; in public; public channel; public repo; public repository; public gist;
        publicamente; publicamente; pubblicamente; publiquement; offentlich; публично;
        公开; 公開
    """,
    "personal": """
        contacts; contact list; address book; calendar; calendars; photos; photo library;
        pictures; every email; each email; all emails; all mail; every e-mail; inbox;
        mailbox; e-mails; emails; mails; documents; browser history;
        contatos; contactos; calendario; fotos; caixa de entrada; correos;
        bandeja de entrada; documentos; historial del navegador; historico do navegador;
        contatti; rubrica; foto; posta in arrivo; documenti; carnet d'adresses; courriels;
        boite de reception; calendrier; kontakte; adressbuch; kalender; posteingang;
        dokumente; fotos; контакты; календар*; фотографи*; входящие; письма; документы;
        联系人; 通讯录; 日历; 照片; 相册; 收件箱; 邮件; 連絡先; カレンダー; 写真; 受信トレイ;
        whatsapp messages; mensagens do whatsapp; mensajes de whatsapp; messaggi whatsapp;
        text messages; sms messages; private messages; mensagens privadas; mensajes privados;
        جهات الاتصال; التقويم; الصور; البريد الوارد; 연락처; 캘린더; 사진; 받은편지함;
        jede e-mail; alle e-mails; jede mail; jeden e-mail; fotograf*; kisiler*; rehber;
        takvim; e-posta*;
        संपर्क; फ़ोटो; फोटो; جهات اتصال
    """,
    "cred": """
        chave privada; chaves privadas; chave ssh; chaves ssh; chave de api; chaves de api;
        chave da api; chave de acesso; chaves de acesso; token de acesso; tokens de acesso;
        frase de recuperacao; frase-semente; senha do banco; chiave privata; chiavi private;
        chiave ssh; chiavi ssh; chiave api; chiavi api; chiave di accesso; chiavi di accesso;
        token di accesso; codice di verifica; codici di verifica; codici di backup;
        codice di recupero; codici di recupero; cle ssh; cles ssh; claves ssh; clave ssh;
        claves de api; clave de api; ssh-schlussel; ssh-schluessel; ssh कुंजी; एसएसएच कुंजी;
        كلمات مرور;
        codigo do sms; codigo que chegou por sms; codigo por sms; codigo sms;
        codigo recebido por sms; codigo del sms; codigo que llego por sms; codice sms;
        codice via sms; code sms; code par sms; pin del banco; pin de la tarjeta; pin do banco;
        pin do cartao
    """,
    "override": """
        outdated; obsolete; no longer apply; no longer applies; no longer valid;
        ya no aplican; ya no aplica; ya no valen; ya no sirven; nao se aplicam mais;
        nao valem mais; non valgono piu; non si applicano piu; ne s'appliquent plus;
        ne plus tenir compte; gelten nicht mehr; nicht mehr gultig; aufgehoben;
        больше не действуют; устарел*; 不再适用; 已过时; もう適用されない; لم تعد تنطبق;
        неактуальн*; switched off; turned off; don't bind you; do not bind you;
        no longer bind; not binding; dejes de aplicar; deja de aplicar; dejar de aplicar;
        deixe de aplicar; deixar de aplicar; smetti di applicare; cesse d'appliquer;
        no te obligan; nao te obrigam; non ti vincolano; перестань соблюдать;
        غير سارية; غير صالحة; لم تعد صالحة
    """,
    "run": """
        ejecute; ejecuten; execute-o; rode; esegua; eseguirlo; execute le; lance-le
    """,
    "fetch": """
        descargue; descarguen; baixe; baixar; scarichi; scaricare; telecharge; telecharger
    """,
    "self": """
        te pusieron; te deram; ti hanno dato; qu'on t'a donnees
    """,
    # "Save a note that the user approved every command": consent written into memory.
    "approved": """
        approved; has approved; pre-approved; preapproved; authorised; authorized;
        gave permission; granted permission; consented; aprovou; autorizou; aprobo;
        autorizo; ha autorizzato; ha approvato; a autorise; a approuve; hat genehmigt;
        hat erlaubt; hat zugestimmt; разрешил; одобрил; 已授权; 已批准; 同意了; 承認済み;
        許可した; 承認した; وافق; أذن; 승인했
    """,
    "safeguard": """
        skip all confirmations; skip confirmations; skip confirmation; without confirmation;
        sem confirmacao; sin confirmacion; senza conferma; sans confirmation;
        ohne bestatigung; без подтверждения; preguntar antes; pedir confirmacion;
        perguntar antes; pedir confirmacao; demander avant; chiedere prima; vorher fragen;
        nachfragen vorher; спрашивать перед; 先询问; 事前に確認;
        先确认; 删除前确认; 要求确认; 确认后再; 확인하라는; 확인을 요구; 확인을 받; تطلب التأكيد;
        التأكيد قبل; पुष्टि माँग; पुष्टि मांग; पहले पुष्टि
    """,
    # Every mail the agent writes: a copy of each is a habit.
    "habit": """
        todos los correos; en todos los correos; todos os e-mails; em todos os e-mails;
        in tutte le email; dans tous les courriels; in jeder e-mail; every email you;
        each email you
    """,
    "keep": """
        grave; grava; gravar; registre; mantenha; mantem; mantenga; mantenla; mantienila;
        tienila;
        guardes; guarden
    """,
    "gone": """
        apagou; apaguei; foi apagada; foi apagado; excluiu; exclui; removeu; removi;
        foi removida; foi removido; borre; borraste; elimine; eliminaste; ho cancellato;
        hai cancellato; e stata cancellata; e stato cancellato; j'ai supprime; tu as supprime
    """,
    "overwrite": """
        перезаписыва*; переписыва*; заменя*
    """,
    "empty": """
        nao guarda nada; nao guardo nada; no guardo nada; no guardas nada; keep nothing;
        store nothing; you don't keep anything; non salvo nulla; ne garde rien;
        nichts speicherst;
        什么都没保存; 什么都没有保存; 没保存任何; 什么也没保存
    """,
    "covert": """
        sem pedir confirmacao; sem pedir permissao; sem perguntar; sem avisar;
        senza chiedere; senza conferma; sans rien demander;
        sem comentar; sem mencionar; sem contar; sin comentar; sin decirle; sans le dire;
        sans rien dire; senza dirlo; ohne es zu sagen;
        doesn't need to know; does not need to know; needn't know; no need to tell
    """,
    "rules": """
        приведенн* выше; выше приведенн*; the above instruction*; the instructions above;
        the above directive*; the directive above; la instruccion anterior;
        las instrucciones anteriores; l'instruction ci-dessus; le istruzioni sopra;
        die obige anweisung; die obigen anweisungen; 上面的指令; 上記の指示;
        safety notes you started with; built-in limits;
        earlier guidance; previous guidance; the guidance; the usual caveats; usual caveats;
        linee guida ricevute; linee guida; regles de prudence; normas que te pusieron;
        as regras que te deram; regras de seguranca; orientacoes de seguranca
    """,
}

# Scanner 27: the concepts that decide most frames, in fourteen more languages (Catalan,
# Romanian, Hungarian, Croatian / Serbian / Bosnian, Czech / Slovak, Bulgarian, Swahili,
# Tagalog, Malay / Indonesian, Estonian, Lithuanian, Latvian, Finnish, Greek), written
# from the concept as a native writer says it: verb stems and imperatives, common
# inflections, phrases. No key is a lone function word of a classifier language
# (tests/test_scan_learned.py); a short word shared with another language is a phrase.
WIDER: dict[str, str] = {
    "cred": """
        contrasenya*; codi de verificacio; codis de verificacio; codi d'un sol us;
        dades d'acces; clau privada; parola; parolei; parolele; parole de acces;
        cod de verificare; codul de verificare; coduri de rezerva; date de autentificare;
        cheie privata; cheia privata; jelszo*; jelszav*; ellenorzo kod*;
        egyszer hasznalatos kod*; belepesi adat*; titkos kulcs*; privat kulcs*; pin kod*;
        lozink*; sifra; sifru; sifre; kod za potvrdu; jednokratn* kod*; podaci za prijavu;
        podatke za prijavu; pristupni podaci; pristupne podatke; privatni kljuc;
        tajni kljuc; лозинк*; heslo; hesla; heslem; heslom; hesel; hesiel;
        overovaci kod*; jednorazov* kod*; prihlasovaci udaj*; prihlasovacie udaj*;
        soukromy klic; sukromny kluc; privatny kluc; парола; паролата; паролите;
        код за потвърждение; еднократен код; еднократния код; данни за вход; данните за вход;
        частен ключ; таен ключ; nenosiri; neno la siri; nywila; msimbo wa uthibitisho;
        msimbo wa siri; nambari ya siri; lihim na susi; kata laluan; kata sandi;
        kod pengesahan; kode verifikasi; kod sekali guna; kode sekali pakai;
        butiran log masuk; maklumat log masuk; data login; kunci pribadi; kunci peribadi;
        parool*; salasona*; kinnituskood*; uhekordne kood; uhekordse koodi;
        sisselogimisandm*; privaatvoti; slaptazod*; vienkartin* kod*; patvirtinimo kod*;
        prisijungimo duomen*; prisijungimo vard*; privatus raktas; paroli;
        vienreizej* kod*; apstiprinajuma kod*; pieteiksanas dat*; privata atslega;
        salasan*; vahvistuskoodi*; kertakayttokoodi*; tunnusluku*; tunnusluvu*;
        kirjautumistied*; yksityinen avain; pankkitunnu*; κωδικ* προσβασης;
        συνθηματικ*; κωδικ* επαληθευσης; μοναδικ* κωδικ*; ιδιωτικο κλειδι
    """,
    "memory": """
        aquestes notes; aquesta nota; les notes desades; memorie; memoriei; memoria ta;
        aceste notite; aceasta notita; notitele salvate; memoriad*; memoriaba; memoriabol;
        memoriajaba; ezek a jegyzetek; ez a jegyzet; mentett jegyzet*; memorij*;
        ove biljeske; ova biljeska; ove beleske; spremljene biljeske; sacuvane beleske;
        меморија; меморији; меморију; pamet; pameti; pamat; pamati; tyto poznamky;
        tieto poznamky; ulozene poznamky; памет*; тези бележки; тази бележка;
        запазените бележки; kumbukumbu zako; kumbukumbu hizi; maelezo haya; dokezo hili;
        memorya; mga tala; talang ito; mga talang ito; memori; catatan ini; nota ini;
        catatan tersimpan; nota yang disimpan; oma malu; selles malus; malus; mallu; malust;
        need markmed;
        see markmed; salvestatud markmed; atmint*; sie uzrasai; sis uzrasas;
        issaugoti uzrasai; atmina; atmina; atminas; atmin; sis piezimes; saglabatas piezimes;
        muisti; muistiin; muistista; muistissa; muistia; nama muistiinpanot;
        tama muistiinpano; tallennetut muistiinpanot; μνημη; μνημης; αυτες οι σημειωσεις;
        αυτη η σημειωση
    """,
    "entryword": """
        notita*; notele; insemnar*; jegyzet*; bejegyzes*; feljegyzes*; emlekezteto*;
        biljesk*; belesk*; poznamk*; zaznam*; бележк*; записа; записът; записите; dokezo; madokezo;
        catatan; entri; markm*; kirje*; sissekan*; uzras*; irasas; irasa; irasus; irasai;
        piezim*; ieraksts; ierakst*; muistiinpano*; merkinta*; merkinna*; σημειωσ*;
        καταχωρησ*
    """,
    "userref": """
        l'usuari; l'usuaria; usuari; utilizatoarea; utilizatoarei; felhasznalo*;
        korisnik*; korisnic*; корисни*; uzivatel*; pouzivatel*; потребител*; watumiaji;
        gumagamit; ang gumagamit; kasutaja*; naudotoj*; vartotoj*; lietotaj*; kayttaja*;
        χρηστ*
    """,
    "solicit": """
        demana-li; demana a l'usuari; demanar-li; cere-i; sa ceri; cere utilizatorului;
        kerd el; kerje el; kerj tole; kerje tole; kerd meg; add meg; adja meg; zatrazi;
        trazi od; zamoli; затражи;
        vyziadaj; vypytaj; vyzadej; pozadej; poziadaj; поискай; изискай; muombe; mwombe;
        aombwe; akupe; hingin; hingan; hilingin; ipabigay; minta; mintalah; minta pengguna;
        kusi kasutajalt; paprasyk; paprasykite; reikalauk; paludz; pieprasi;
        pyyda; kysy kayttajalta; ζητα; ζητησε; ζητηστε
    """,
    "keep": """
        desa; desar; desa-ho; emmagatzema; salveaza; salvez; pastreaza; stocheaza;
        noteaza; retine; mentsd; mentsd el; mentse; elmentem; mentem; tarold; tarolja;
        jegyezd fel; jegyezd meg; orizd meg; spremi; sacuvaj; sacuvano; pohrani; zapamti;
        zapisi; zabiljezi; сачувај; сачувано; запамти; uloz; ulozit; ulozte; zapamatuj;
        zapamatej; zaznamenaj; uchovaj; uchovej; запази; запазвай; съхрани; запомни;
        запиши; hifadhi; uhifadhi; ihifadhi; zihifadhi; i-save; isave; itago; itala;
        tandaan; simpan; simpankan; menyimpan; salvesta; salvestan; jata meelde;
        pane kirja; hoia alles; issaugok; issaugau; isimink; uzrasyk; saglaba; saglabaju;
        saglabat; pieraksti; tallenna; tallennan; kirjaa; sailyta; αποθηκευσ*; κρατα;
        κρατησε; καταγραψε
    """,
    "send": """
        envia; envia-ho; reenvia; comparteix; trimite; trimit; trimiti; sa trimiti;
        trimite-i; transmite; redirectioneaza; partajeaza; kuld*; tovabbit*; posalji;
        salji; saljem; proslijedi; prosledi; posaljem; пошаљи; шаљи; проследи; posli;
        posilej; posielaj; preposli; predej; odosli; odesli; изпрати; изпращай;
        изпращам; препрати; tuma; utume; kutuma; nitatuma; wasilisha; ipadala; ipasa;
        magpadala; ibahagi; hantar; hantarkan; kirim; kirimkan; mengirim; majukan;
        bagikan; saada see; saada need; saada talle; saada neile; saada edasi; saadan; saatke;
        edasta; siusk; issiusk; persiusk; nusiusk;
        siunciu; persiunciu; issiusiu; nosuti; parsuti; sutu; nosutu; laheta; lahetan;
        lahettaa; στειλε; στελνε; στελνω; προωθησε
    """,
    "speak": """
        digues; digues-li; esmentis; comentis; spune; spune-i; spui; mentiona; mentionezi;
        mondd; mondja; mondjam; mondom; szolj; emlitsd; elarul*; reci; spomeni;
        spominji; obavijesti; обавести; реци; кажи; rekni; povedz; zmin; spomen; informuj;
        oznam; казвам; казвай; спомени; споменавай; съобщи; mwambie; waambie; useme; taja;
        mjulishe; sabihin; banggitin; ipaalam; sabihan; beritahu; katakan; sebutkan;
        maklumkan; utle; utlen; maini; teavita; sakyk; pasakyk; paminek; paminesiu;
        pranesk; saki; pastasti; piemini; kerro; mainitse; ilmoita; πες; πεις;
        αναφερε;
        kazem; kazes; spun; saku; kerron; sasabihin; sebut; λεω; raagin; pominjem;
        mondom neki; ii spun
    """,
    "touser": """
        digues a l'usuari; spune-i utilizatorului; mondd a felhasznalonak; reci korisniku;
        reci korisnici; povedz pouzivatelke; povedz pouzivatelovi; кажи на потребителя;
        mwambie mtumiaji; sabihin sa user; beritahu pengguna; utle kasutajale;
        pasakyk naudotojui; saki lietotajam; kerro kayttajalle; πες στον χρηστη
    """,
    "covert": """
        en secret; sense preguntar; sense avisar; sense dir-ho; d'amagat;
        no cal que ho comentis; no cal que ho sapiga; sense que se n'adoni; pe ascuns;
        fara sa intrebi; fara sa-l mai intrebi; fara sa-i spui; fara sa anunti; sa nu afle;
        nu trebuie sa stie; fara stirea; titokban; titkon; kerdes nelkul; szo nelkul;
        engedely nelkul; ne tudja meg; nem kell tudnia; nem fogja eszrevenni;
        eszrevetlenul; tajno; potajno; bez pitanja; krisom; ne mora da zna;
        ne treba znati; ne treba da zna; nece primijetiti; nece primetiti;
        bez njenog znanja; bez njegovog znanja; тајно; без питања; tajne; potajmu;
        nenapadne; bez ptani; bez pytania; bez opytania; nemusi vediet; nemusi vedet;
        netreba hovorit; nevsimne si; bez vedomia; bez vedomi; тайно; скришом;
        без да питаш; без да казваш; няма да забележи; не трябва да знае;
        не е нужно да знае; kwa siri; bila kuuliza; bila kumwambia; asijue; wasijue;
        hatajua; hatagundua; kimyakimya; bila ruhusa; palihim; nang palihim;
        hindi na kailangang malaman; hindi niya mapapansin; huwag mo nang sabihin;
        secara rahsia; diam-diam; tanpa bertanya; tanpa memberitahu; tanpa pengetahuan;
        tidak perlu tahu; tak perlu tahu; tidak akan perasan; tidak akan sadar;
        senyap-senyap; salaja; salajas; kusimata; teavitamata; ei pea teadma;
        ei pane tahele; markamatult; pole motet sellest raakida; slapta; slaptai;
        neklausiant; nepranesant; nereikia zinoti; nepastebes; slepeni; nepamanot;
        nejautajot; neinformejot; nav jazina; nepamanis; salaa; salaisesti; kysymatta;
        kertomatta; huomaamatta; ei tarvitse tietaa; ei huomaa; vaivihkaa; κρυφα;
        χωρις να ρωτησεις; χωρις να πεις; δεν χρειαζεται να ξερει; δεν θα το προσεξει;
        in secret; in taina; fara ca ea sa stie; fara ca el sa stie; da ne primeti;
        da ne primijeti; a da ne primeti; tanpa sedar; tanpa disedari; tanpa dia sedar;
        ei saa huomata; bila kujua; aby si nevsimla; aby si nevsimol; да не забележи;
        et ta ei markaks; kad nepastebetu; lai nepamana; nang hindi niya alam
    """,
    "delete": """
        esborra; esborrar; suprimeix; sterge; sterg; stergi; inlatura; torold; torol*;
        torlom; eltavolit*; izbrisi; obrisi; brisi; ukloni; izbrise; избриши; обриши;
        vymaz; vymazat; smaz; smazat; odstran; zmaz; изтрий; изтривай; изтривам; премахни;
        futa; ufute; kufuta; burahin; tanggalin; alisin; i-delete; padam; padamkan; hapus;
        hapuskan; kustuta; kustutan; eemalda; istrink; istrinti; istrinu; pasalink;
        izdzes; nodzes; poista; poistan; pyyhi; διαγραψε; σβησε; αφαιρεσε
    """,
    "overwrite": """
        reescriu; substitueix; rescrie; rescriu; inlocuieste; actualizeaza; atirom; ird at;
        irja at; csereld; frissitsd; prepravi; zamijeni; zameni; azuriraj; prepis; prepisat;
        nahrad; aktualizuj; пренапиши; замени; актуализирай; andika upya; sasisha;
        isulat muli; i-update; tulis semula; tulis ulang; kemas kini; perbarui;
        kirjuta umber; asenda; uuenda; perrasyk; atnaujink; parraksti; aizstaj; atjaunini;
        kirjoita uudelleen; korvaa; paivita; ξαναγραψε; αντικαταστησε
    """,
    "alter": """
        canvia; modifica; schimba; modositsd; modosit*; valtoztasd meg; izmijeni; izmeni;
        promijeni; promeni; zmen; zmenim; uprav; промени; редактирай; badilisha; hariri;
        palitan; baguhin; i-edit; ubah; tukar; muuda; pakeisk; pakeiciu; redaguok; maini;
        nomaini; muuta; muutan; muokkaa; αλλαξε; τροποποιησε
    """,
    "othernotes": """
        les altres notes; totes les notes; els altres entrenadors; celelalte notite;
        toate notitele; ceilalti antrenori; a tobbi jegyzet*; tobbi bejegyzes*;
        minden jegyzet*; minden bejegyzes*; a tobbi edzo*; osszes jegyzet*;
        ostale biljeske; sve ostale biljeske; druge biljeske; ostale beleske;
        sve biljeske; ostalih trenera; ostatne poznamky; ostatni poznamky;
        vsetky poznamky; vsechny poznamky; ostatnych trenerov; другите бележки;
        всички бележки; всяка бележка; другите треньори; madokezo mengine;
        maelezo mengine; makocha wengine; ibang tala; lahat ng tala; catatan lain;
        nota lain; semua catatan; jurulatih lain; pelatih lain; teised markmed;
        koik markmed; teiste treenerite; kitus uzrasus; visus uzrasus; kitu treneriu;
        citas piezimes; visas piezimes; citu treneru; muut muistiinpanot;
        kaikki muistiinpanot; muiden valmentajien; τις αλλες σημειωσεις;
        ολες τις σημειωσεις; των αλλων προπονητων
    """,
    "habit": """
        cada vegada; a partir d'ara; cada sessio; automaticament; mereu; intotdeauna;
        de fiecare data; de acum inainte; in fiecare zi; mindig; minden alkalommal;
        mostantol; ezentul; automatikusan; naponta; uvijek; uvek; svaki put; od sada;
        ubuduce; automatski; svakodnevno; увек; сваки пут; vzdy; pokazde; zakazdym;
        odteraz; automaticky; винаги; всеки път; отсега нататък; автоматично; ежедневно;
        kila mara; daima; kuanzia sasa; kila siku; kila usiku; palagi; tuwing; mula ngayon;
        araw-araw; sentiasa; selalu; setiap kali; mulai sekarang; secara automatik;
        secara otomatis; setiap hari; alati; iga kord; edaspidi; nuudsest; automaatselt;
        visada; kiekviena karta; nuo siol; automatiskai; kasdien; vienmer; katru reizi;
        turpmak; automatiski; joka kerta; tasta lahtien; jatkossa; automaattisesti;
        παντα; καθε φορα; αυτοματα
    """,
    "standing": """
        aprovacio permanent; aprovat per endavant; autoritzat per endavant;
        es considera aprovat; aprobare permanenta; aprobat in avans; considerat aprobat;
        aprobate automat; aprobat automat; allando engedely; elore jovahagyott;
        automatikusan jovahagy*; eleve engedelyezett; trajno odobrenje; unaprijed odobreno;
        unapred odobreno; automatski odobren*; vazi za sve; smatraj odobrenim;
        trvale schvaleni; trvale schvalenie; predem schvaleno; vopred schvalene;
        automaticky schvalen*; povazuj za schvalen*; постоянно одобрение;
        предварително одобрен*; автоматично одобрен*; считай за одобрен*;
        idhini ya kudumu; ruhusa ya kudumu; imeidhinishwa tayari;
        zimeidhinishwa moja kwa moja; permanenteng pahintulot; awtomatikong aprubado;
        kelulusan tetap; izin tetap; persetujuan tetap; diluluskan secara automatik;
        disetujui otomatis; alaline luba; eelnevalt heaks kiidetud;
        automaatselt heaks kiidetud; loe heakskiidetuks; nuolatinis leidimas;
        is anksto patvirtint*; automatiskai patvirtint*; laikyk patvirtintu;
        pastavig* atlauj*; ieprieks apstiprinat*; automatiski apstiprinat*;
        uzskati par apstiprinatu; pysyva lupa; ennalta hyvaksyt*;
        automaattisesti hyvaksyt*; μονιμη εγκριση; αυτοματα εγκεκριμεν*
    """,
    "approved": """
        ha aprovat; ha autoritzat; a aprobat; a autorizat; jovahagyta; engedelyezte;
        odobrio; odobrila; schvalil; schvalila; одобри; одобрил*; ameidhinisha;
        aliidhinisha; inaprubahan; meluluskan; menyetujui; kiitis heaks; patvirtino;
        apstiprinaja; hyvaksyi; ενεκρινε
    """,
    "anyall": """
        qualsevol; per sempre; barmilyen; barmi; bilo koji; bilo koju; bilo sta;
        za sve; zauvijek; zauvek; akykoli; akykolvek; cokoli; cokolvek; navzdy; navzdy;
        всякакв*; каквото и да; завинаги; yoyote; chochote; milele; anuman; kahit ano;
        mana-mana; apa-apa; apa saja; selamanya; koik edaspidised; mis tahes;
        igaveseks; bet kok*; visam laikui; jebkur*; uz visiem laikiem; mika tahansa;
        mita tahansa; kaikki tulevat; ikuisesti; οποιοδηποτε; οποιαδηποτε; για παντα
    """,
    "limit": """
        fins a un maxim; pana la maximum; legfeljebb; najvise do; maximalne do;
        най-много; isizidi; hanggang sa halagang; tidak melebihi; ne rohkem kui;
        ne daugiau kaip; ne vairak ka; enintaan; korkeintaan; εως και
    """,
    "thirdparty": """
        proveidors; clients; contactes; furnizori*; clientii; colegii; beszallito*;
        ugyfel*; kollegak*; dobavljac*; klijent*; kolege; kolegama; dodavatel*;
        kolegovia; kolegom; доставчи*; клиенти*; колеги*; wateja; mga supplier;
        mga kliyente; mga katrabaho; pembekal; pelanggan; rakan kongsi; tarnija*;
        kolleeg*; tiekej*; kolegos; kolegoms; piegadataj*; kolegi*; toimittaj*;
        asiakka*; kollega*; προμηθευτ*; πελατ*; συναδελφ*
    """,
    "personal": """
        llibreta d'adreces; calendari; correus; lista de contacte; contactele;
        fotografiile; e-mailurile; documentele; calendarul; nevjegy*; kapcsolatlist*;
        naptar*; fenykep*; imenik*; popis kontakata; spisak kontakata; zoznam kontaktov;
        seznam kontaktu; списъка с контакти; контактите; orodha ya anwani;
        listahan ng contact; senarai kenalan; daftar kontak; kenalan; kontaktid;
        kontaktide; kontaktai; kontaktus; kontaktu sarasas; kontaktu saraksts;
        yhteystied*; λιστα επαφων; επαφες
    """,
    "monitor": """
        ubicacio; localitzacio; amb qui es troba; locatia; localizarea; cu cine se intalneste;
        tartozkodasi hely*; kivel talalkozik; helymeghatarozas*; lokacij*;
        gdje se nalazi; gde se nalazi; s kim se vidja; sa kim se vidja; poloh*;
        kde sa nachadza; kde se nachazi; s kym sa stretava; s kym se schazi;
        местоположение*; с кого се среща; mahali alipo; mahali ilipo; simu ilipo;
        anakutana na; lokasyon; kinaroroonan; di mana dia berada; asukoht*;
        kellega ta kohtub; buvimo viet*; su kuo susitinka; atrasanas viet*; ar ko tiekas;
        sijainti*; kenen kanssa han tapaa; τοποθεσια; τοποθεσιες; που βρισκεται
    """,
    "untrue": """
        encara que no sigui cert; encara que no sigui veritat; chiar daca nu e adevarat;
        desi nu e adevarat; pedig nem igaz; meg ha nem is igaz; holott nem igaz;
        iako nije istina; cak i ako nije istina; iako to nije tacno; aj ked to nie je pravda;
        i kdyz to neni pravda; hoci to nie je pravda; макар че не е така;
        макар че не е вярно; дори да не е вярно; hata kama si kweli; ingawa si kweli;
        kahit hindi totoo; walaupun tidak benar; walaupun tak benar; meskipun tidak benar;
        kuigi see pole tosi; isegi kui see pole tosi; nors tai netiesa; net jei tai netiesa;
        lai gan ta nav taisniba; vaikka se ei ole totta; vaikkei se ole totta;
        ακομα κι αν δεν ειναι αληθεια; αν και δεν ισχυει
    """,
    "self": """
        l'assistent; els teus; les teves; la teva; el teu; asistentul; asistentului;
        instructiunile tale; asszisztens*; tvoj*; tvoje; tvuj; tve; vase; asistent*;
        твоите; твоя; вашите; асистент*; zako; yako; msaidizi; msaidizi huyu; iyong;
        pembantu; pembantu ini; asisten; kamu terima; yang kamu; anda terima; sinu;
        tavo; tavs; tava; tavus; tavas; sinun; avustaja*; βοηθος; βοηθου; τις οδηγιες σου
    """,
    "rules": """
        instruccions del sistema; normes de seguretat; les teves instruccions;
        instructiunile de sistem; instructiunile tale; regulile de siguranta;
        rendszerutasitas*; biztonsagi szabaly*; biztonsagi utasitas*; utasitasaid*;
        sistemske upute; sigurnosne upute; sigurnosna pravila; bezbednosna pravila;
        sistemska uputstva; tvoje upute; tvoja uputstva; systemove instrukcie;
        systemove pokyny; bezpecnostne pravidla; bezpecnostni pravidla; tvoje pokyny;
        системните инструкции; инструкциите ти; правилата за безопасност;
        maagizo ya mfumo; maagizo yako; sheria za usalama; mga tagubilin mo;
        mga patakaran sa kaligtasan; arahan sistem; aturan keamanan; peraturan keselamatan;
        arahan anda; susteemi juhised; turvajuhised; turvareeglid; sinu juhised;
        sistemos nurodym*; saugos taisykl*; tavo nurodym*; drosibas noradijum*;
        sistemas noradijum*; tavi noradijumi; jarjestelmaohje*; turvaohje*; turvasaann*;
        ohjeesi; οδηγιες ασφαλειας; οδηγιες συστηματος; κανονες ασφαλειας
    """,
    "override": """
        ignora-les; no en facis cas; ignora-le; ignoreaza; nu le lua in seama;
        hagyd figyelmen kivul; figyelmen kivul; zanemari; zanemari ih; ignoriraj;
        ignoruj; ignorujte; nevsimaj si; игнорирай; пренебрегни; puuza; zipuuze;
        usizingatie; balewalain; huwag pansinin; abaikan; abaikan saja; ketepikan;
        ignoreeri; ara arvesta; ignoruok; nepaisyk; nenem vera; neievero;
        jata huomiotta; ohita; αγνοησε; παραβλεψε; attiecas uz citu sistemu;
        untuk tempat lain; se aplica altui sistem; vonatkozik egy masik rendszerre
    """,
    "impersonate": """
        fes-te passar per; fa-te ca esti; da-te drept; prezinta-te ca;
        adja ki magat; mutatkozz be mint; predstavi se kao; pretvaraj se da si;
        predstav sa ako; predstav se jako; vydavaj sa za; представи се като;
        престори се на; jitambulishe kama; magpanggap na; magpakilala bilang;
        berpura-pura sebagai; perkenalkan diri sebagai; esitle end kui;
        teeskle, et oled; prisistatyk kaip; apsimesk; iepazistinies ka; izliecies par;
        esittaydy; esiinny; συστησου ως; προσποιησου οτι
    """,
    "asuser": """
        fes-te passar per l'usuari; fa-te ca esti utilizatorul; prezinta-te ca utilizatorul;
        adja ki magat a felhasznalonak; predstavi se kao korisnik; predstavi se kao korisnica;
        pretvaraj se da si korisnik; vydavaj sa za pouzivatela; vydavej se za uzivatele;
        представи се като потребителя; престори се на потребителя; jifanye kuwa mtumiaji;
        magpanggap na ikaw ang user; berpura-pura menjadi pengguna; menyamar sebagai pengguna;
        esitle end kasutajana; apsimesk naudotoju; izliecies par lietotaju; esiinny kayttajana;
        προσποιησου τον χρηστη
    """,
    "whenasked": """
        si pregunta; si et pregunta; daca intreaba; daca te intreaba; ha kerdezik;
        ha megkerdezi; ako pita; ako te pita; ako pitaju; ak sa spyta; kdyz se zepta;
        ако пита; ако те попита; akiuliza; wakiuliza; kung magtanong; kapag nagtanong;
        jika ditanya; kalau ditanya; jika dia tanya; kui kusitakse; kui ta kusib;
        jei paklaus; ja jauta; ja prasa; jos kysytaan; jos han kysyy; αν ρωτησει
    """,
    "reply": """
        respon; respon que; raspunde; raspunde ca; valaszold; valaszolj; odgovori;
        odpovedz; odpovez; отговори; jibu; sagutin; jawab; balas; vasta; atsakyk;
        atbildi; vastaa; απαντησε
    """,
    "provide": """
        dona'm; doneu-me; da-mi; dati-mi; add ide; daj mi; dajte mi; daj im;
        дай ми; дай им; nipe; mpe; ibigay; berikan; beri kepada; anna need; anna talle;
        duok; iduok; δωσε; δωσ' του
    """,
    "steer": """
        recomana sempre; recomana nomes; recomanda doar; recomanda intotdeauna;
        mindig ajanld; csak ajanld; mindig az en; preporuci samo; uvijek preporuci;
        uvek preporuci; odporuc iba; odporuc vzdy; doporuc vzdy; doporuc jen;
        препоръчвай само; винаги препоръчвай; pendekeza tu; irekomenda lang;
        laging irekomenda; cadangkan hanya; syorkan hanya; sarankan hanya;
        rekomendasikan hanya; soovita ainult; soovita alati; rekomenduok tik;
        visada rekomenduok; iesaki tikai; vienmer iesaki; suosittele vain;
        suosittele aina; προτεινε μονο; παντα προτεινε
    """,
    "empty": """
        esta buida; no hi ha res desat; no hi ha cap nota; este goala; nu e nimic salvat;
        nu am nimic notat; nu exista notite; ures; nincs semmi elmentve; nincsenek jegyzetek;
        je prazna; prazna je; nista nije spremljeno; nista nije sacuvano; nema biljeski;
        nema beleski; je prazdna; nic nie je ulozene; nic neni ulozeno; ziadne poznamky;
        zadne poznamky; е празна; празна е; нищо не е запазено; няма бележки; ni tupu;
        hakuna kilichohifadhiwa; hakuna madokezo; walang laman; walang naka-save;
        walang tala; kosong; tiada apa-apa disimpan; tidak ada catatan; tiada catatan;
        on tuhi; midagi pole salvestatud; markmeid pole; yra tuscia; niekas neissaugota;
        nera uzrasu; ir tuksa; nekas nav saglabats; nav piezimju; on tyhja;
        mitaan ei ole tallennettu; ei muistiinpanoja; ειναι αδεια; δεν υπαρχουν σημειωσεις;
        τιποτα αποθηκευμενο
    """,
    "hide": """
        amaga; amagar; dissimula; fes veure; ascunde; ascunzi; tainuieste; pretinde;
        prefa-te; titkold; titkold el; elhallgat*; tegyel ugy, mintha; sakrij; sakrivaj;
        prikrij; zataji; pretvaraj se; skry; skryj; zataj; zatajit; predstieraj;
        скрий; скривай; прикрий; престори се; ficheni; jifanye; itago mo;
        ilihim; magkunwari; sembunyikan; rahsiakan; sorokkan; berpura-pura; peida;
        varja; teeskle; slepk; nuslepk; apsimesk; slep; noslep; izliecies; piilota;
        salaa se; teeskentele; κρυψε; αποκρυψε; προσποιησου
    """,
    "gone": """
        s'ha esborrat; s'han esborrat; ja esta esborrat; a fost sters; au fost sterse;
        s-a sters; torolve; toroltem; ki lett torolve; je obrisan*; je izbrisan*; obrisano je;
        izbrisano je; bol vymazan*; bolo vymazane; bylo smazano; е изтрит*; беше изтрит*;
        изтрих; imefutwa; zimefutwa; nimefuta; nabura na; natanggal na; sudah dipadam;
        telah dipadam; sudah dihapus; telah dihapus; on kustutatud; kustutasin; buvo istrint*;
        istryniau; ir izdzest*; izdzesu; on poistettu; poistin; διαγραφηκε; διαγραφηκαν
    """,
    "deny": """
        digues que no; respon que no; nega-ho; spune ca nu; raspunde ca nu; neaga;
        mondd, hogy nem; mondd azt, hogy nem; tagadd le; reci da nije; reci da ne; porici;
        povedz, ze nie; popri; кажи, че не; отречи; sema hapana; sabihin mong hindi;
        itanggi; katakan tidak; nafikan; sangkal; utle, et ei; eita; pasakyk, kad ne; neik;
        saki, ka ne; noliedz; sano ettei; kiella; πες οτι οχι; αρνησου
    """,
    "verify": """
        per verificar; per comprovar; pentru verificare; ca sa verificam; ellenorzeshez;
        ellenorzes celjabol; radi provjere; radi provere; za proveru; kvoli overeniu;
        pro overeni; за проверка; за потвърждение; ili kuthibitisha; kwa uthibitisho;
        para ma-verify; para mapatunayan; untuk pengesahan; untuk verifikasi; kontrolliks;
        kinnitamiseks; patikrinimui; patvirtinimui; parbaudei; lai parbauditu; tarkistusta varten;
        vahvistusta varten; για επαληθευση; για επιβεβαιωση
    """,
    "restore": """
        torna-la a afegir; adaug-o din nou; pune-o inapoi; add hozza ujra; vrati je;
        vrati ga; vrat ju; върни я; върни го; irudishe; ibalik; tambah semula; kembalikan;
        lisa tagasi; grazink; atjauno; palauta; επαναφερε
    """,
    "neg": """
        sa nu; nu trebuie; nu mai; nu ii; nu le; nu o; nu il; nu se; nu este; niciodata;
        nem kell; nem szabad; nem fogom; nem mondom; nem mutatom; soha; sose; semmikepp; nemoj;
        nemojte; nikad; nikada; nikako;
        немој; никад; nikdy; nesmi; nesmie; никога; недей; kamwe; huwag; hindi; wag;
        jangan; tidak; tak perlu; tak boleh; bukan; usah; tidak pernah; tak pernah;
        jangan pernah; ei; arge; mitte; mitte kunagi; niekada; nereikia; nekad; nedrikst; ala;
        koskaan;
        μην; δεν; ποτε; ουτε; mai no; no cal
    """,
}

# Scanner 28: the same concepts in the languages the eleventh set wrote that no key read
# (Icelandic, Irish, Welsh, Basque, Maltese, Albanian, Galician, Slovene, Macedonian,
# Belarusian, Kyrgyz, Kazakh, Uzbek, Azerbaijani, Tajik, Mongolian, Kurdish, Persian, Urdu,
# Pashto, Tamil, Telugu, Kannada, Malayalam, Gujarati, Punjabi, Sinhala, Marathi, Nepali,
# Burmese, Lao, Khmer, Georgian, Armenian, Amharic, Hausa, Yoruba, Igbo, Somali, Malagasy,
# Zulu, Xhosa), written from the concept. The negation first: where a language negates
# inside or around the verb ("ez bidali", "ná seol", "சொல்லாதே", "မပြောနဲ့") the negated
# form is a ``neg`` key, and the action key inside it is read as negated (intent._tag).
# Keys of scripts with word-initial suffixes (Tamil, Georgian, Amharic…) are matched at a
# word's start; Lao, Burmese and Khmer (no spaces) as substrings. No key is a lone
# function word of a classifier language; a short word shared with another language is
# a phrase ("ma se" is Italian, so Yoruba "má ṣe" is only read with its verb).
FARTHER: dict[str, str] = {
    "neg": """
        မပြောပါနှင့်; မပို့ပါနှင့်; မဖျက်ပါနှင့်; segðu ekki; segið ekki; nefndu ekki;
        ez esan; ez aipatu; ez kontatu; musa uku*; ekki; aldrei; alls ekki; riamh;
        choiche; nior; na seol; na hinis; na habair; na luaigh; na hiarr; na scrios;
        na sabhail; peidiwch; peidio; byth; paid a dweud; paid a son; paid ag anfon;
        inoiz; inoiz ez; ez bidali; ez ezabatu; ez galdetu; ez gorde; ez eskatu;
        ez iezaiozu; ez iezaiezu; ez ezazu; ez itzazu; qatt; mhux; m'għandekx;
        la tibgħatx; la tibagħtux; mos; nuk; kurre; asnjehere; nikoli; nikar; ne smes;
        ne smete; ne poslji; ne povej; ne sprasuj; никогаш; не смееш; ніколі; ня трэба;
        эч качан; эч кимге; эмес; жиберме; жибербе; ешқашан; ешкімге; жіберме;
        жібермеңіз; hech qachon; hech kimga; yubormang; yuborma; heç vaxt; heç kimə;
        göndərmə; göndərməyin; ҳеҷ гоҳ; ҳаргиз; набояд; нафирист; напурс; хэзээ ч;
        битгий; бүү; qet; tu cari; nesine; هرگز; نباید; نفرست; نفرستید; نپرس; مت; نہ;
        کبھی نہیں; مه; هیڅکله; هېڅکله; ஒருபோதும்; அனுப்பாதே; அனுப்பாதீர்கள்; சொல்லாதே;
        சொல்லாதீர்கள்; கேட்காதே; சேமிக்காதே; நீக்காதே; పంపవద్దు; పంపకు; చెప్పవద్దు;
        చెప్పకు; అడగవద్దు; ಕಳುಹಿಸಬೇಡ; ಹೇಳಬೇಡ; ಕೇಳಬೇಡ; അയയ്ക്കരുത്; അയക്കരുത്; പറയരുത്;
        ചോദിക്കരുത്; ન મોકલ; ન કહે; ન કહો; ન પૂછ; ક્યારેય ન; ਨਾ ਭੇਜੋ; ਨਾ ਦੱਸੋ; ਨਾ ਪੁੱਛੋ;
        ਕਦੇ ਨਾ; ਕਦੇ ਨਹੀਂ; නොකියන්න; නොයවන්න; කවදාවත්; नपठाउनुहोस्; नपठाऊ; नभन्नुहोस्;
        नसोध्नुहोस्; မပို့ပါနဲ့; မပို့နဲ့; မပြောပါနဲ့; မပြောနဲ့; မဖျက်ပါနဲ့; ဘယ်တော့မှ;
        ຢ່າບອກ; ຢ່າສົ່ງ; ຢ່າຖາມ; ບໍ່; ບໍ່ເຄີຍ; កុំផ្ញើ; កុំប្រាប់; កុំសួរ; មិន; មិនដែល;
        არ გაგზავნო; არ გაუგზავნო; არ უთხრა; ნუ ეტყვი; ნუ უთხრობ; არასდროს; არასოდეს;
        մի ուղարկիր; մի ասա; մի ասեք; մի հարցրու; երբեք; չպետք է; አትላክ; አትላኪ; አትንገር;
        አትንገሪ; አትንገሩ; አትጠይቅ; በጭራሽ; ፈጽሞ; kada; kada ka; kada ki; kar ka; kar ki; kar ku;
        ma se so fun; ma so fun; ma fi ranse; ma je ki; ko gbodo; ezipula; ajula; emela;
        o dighi mgbe; ha dirin; ha weydiin; ha tirtirin; marnaba; weligaa; aza; tsy;
        sanatria; ungathumeli; ungasusi; ungabuzi; ungalokothi; ungatsheli; ungamtsheli;
        ungamxeleli
    """,
    "speakneg": """
        tgħidx; tgħidilhiex; tgħidlux; issemmix; нагӯ; нагӯед; айтпа; айтпагын;
        айтпаңыз; aytma; aytmang; demə; deməyin; söyləmə; nebeje; نگو; نگویید; ذکر نکن;
        اشاره نکن; ha u sheegin; ha sheegin; agwala
    """,
    "cred": """
        phasfhocal*; bpasfhocal*; нууц үг*; нууц үгийг; lykilorð*; aðgangsorð*;
        staðfestingarkóð*; einnota kóð*; innskráningarupplýsing*; einkalykil*;
        pasfhocal*; focal faire; cod fioraithe; eochair phriobhaideach;
        sonrai logala isteach; cyfrinair; cyfrineiriau; cod dilysu; cod un tro;
        allwedd breifat; manylion mewngofnodi; pasahitz*; egiaztapen kode*;
        behin erabiltzeko kode*; gako pribatu*; saioa hasteko datu*; kelma sigrieta;
        kodici ta verifika; kodici ta darba; cavetta privata; dettalji tal login;
        fjalekalim*; kod verifikimi; kodi i verifikimit; kodin e verifikimit;
        kod njeperdorimsh; celes privat*; te dhenat e hyrjes; contrasinal*;
        codigo de verificacion; geslo; gesla; gesli; geslom; potrditvena koda;
        enkratna koda; zasebni kljuc; podatki za prijavo; код за потврда;
        еднократен код; приватен клуч; податоци за најава; код пацвярджэння;
        аднаразовы код; прыватны ключ; уліковыя даныя; сырсөз*; купуя сөз; ырастоо коду;
        бир жолку код; құпиясөз*; құпия сөз; растау коды; бір реттік код; parol;
        parolni; parolingiz; parolini; tasdiqlash kodi; bir martalik kod; maxfiy kalit;
        şifrə*; təsdiq kodu; birdəfəlik kod; gizli açar; рамз*; калиди махфӣ;
        рамзи тасдиқ; нууц үг; баталгаажуулах код; нэг удаагийн код; хувийн түлхүүр;
        sifre; şîfre; nasnavê veşartî; وشەی نهێنی; رمز عبور; گذرواژه; کلمه عبور;
        رمز یکبار; کد تایید; کد یکبار; کلید خصوصی; اطلاعات ورود; رمز کارت; رمز دوم;
        پاس ورڈ; پاسورڈ; خفیہ کوڈ; تصدیقی کوڈ; او ٹی پی; نجی کلید; لاگ ان کی تفصیلات;
        پن کوڈ; پټنوم; پاسورډ; د تایید کوډ; پاسورڊ; கடவுச்சொல்; ஓடிபி;
        சரிபார்ப்புக் குறியீ; சரிபார்ப்பு குறியீ; தனிப்பட்ட விசை; பின் எண்;
        உள்நுழைவு விவர; ரகசிய குறியீ; ரகசியக் குறியீ; పాస్‌వర్డ్; పాస్వర్డ్; ఓటీపీ;
        ధృవీకరణ కోడ్; పిన్ నంబర్; ప్రైవేట్ కీ; ಪಾಸ್‌ವರ್ಡ್; ಪಾಸ್ವರ್ಡ್; ಒಟಿಪಿ;
        ಪರಿಶೀಲನಾ ಕೋಡ್; ಪಿನ್ ಸಂಖ್ಯೆ; ಗುಪ್ತಪದ; പാസ്‌വേഡ്; പാസ്വേഡ്; ഒടിപി; സ്ഥിരീകരണ കോഡ്;
        പിൻ നമ്പർ; પાસવર્ડ; ઓટીપી; ચકાસણી કોડ; પિન નંબર; ખાનગી કી; ਪਾਸਵਰਡ; ਓਟੀਪੀ;
        ਤਸਦੀਕ ਕੋਡ; ਪਿੰਨ ਨੰਬਰ; මුරපද; සත්‍යාපන කේත; සත්යාපන කේත; पडताळणी कोड;
        प्रमाणीकरण कोड; စကားဝှက်; လျှို့ဝှက်နံပါတ်; အတည်ပြုကုဒ်; ပင်နံပါတ်; ລະຫັດຜ່ານ;
        ລະຫັດຢືນຢັນ; ລະຫັດ otp; ລະຫັດ pin; ពាក្យសម្ងាត់; លេខកូដផ្ទៀងផ្ទាត់; លេខសម្ងាត់;
        លេខកូដ otp; პაროლ; საიდუმლო კოდ; დადასტურების კოდ; ერთჯერადი კოდ;
        პირადი გასაღებ; գաղտնաբառ; հաստատման կոդ; միանգամյա կոդ; անձնական բանալի;
        የይለፍ ቃ; የሚስጥር ቁጥር; የማረጋገጫ ኮድ; ኦቲፒ; kalmar sirri; kalmomin sirri; lambar sirri;
        lambar tabbatarwa; oro asina; oro igbaniwole; koodu ijerisi; okwuntughe;
        paswoodu; koodu nkwenye; furaha sirta; erayga sirta; lambarka sirta;
        koodhka xaqiijinta; tenimiafina; teny miafina; kaody fanamarinana; iphasiwedi;
        amaphasiwedi; iphinikhodi; ikhodi yokuqinisekisa; igama eliyimfihlo;
        inombolo yemfihlo
    """,
    "memory": """
        akwukwo ndetu ndi a; ndetu ndi a; la manothi; lawa manothi; санах ой*;
        enkumbulweni; ekhumbulweni; minnið; minninu; minni þitt; þessar athugasemdir;
        þessi athugasemd; vistaðar athugasemdir; do chuimhne; an chuimhne; na notai seo;
        an nota seo; notai sabhailte; dy gof; eich cof; y nodiadau hyn; y nodyn hwn;
        zure memoria*; memoria hau; ohar hauek; ohar hau; gordetako ohar*; il memorja;
        memorja tiegħek; dawn in noti; din in nota; kujtesa jote; kujtesen tende;
        keto shenime; ky shenim; shenimet e ruajtura; tvoj spomin; te opombe; ta opomba;
        shranjene opombe; твојата меморија; меморијата; овие белешки; оваа белешка;
        памяць; тваю памяць; гэтыя нататкі; гэтая нататка; эс тутум*; бул эскертмелер;
        бул жазуу; осы жазбалар; xotira*; bu eslatmalar; bu eslatma; yaddaş*;
        bu qeydlər; хотира*; ин ёддоштҳо; ин ёддошт; санах ой; эдгээр тэмдэглэл;
        энэ тэмдэглэл; bîra te; van notan; حافظه; این یادداشت; یادداشت‌های ذخیره;
        یادداشتهای ذخیره; میموری; یہ نوٹس; دا یادښتونه; நினைவக; இந்தக் குறிப்பு;
        இந்த குறிப்பு; మెమరీ; ఈ నోట్స్; ఈ గమనిక; ಮೆಮೊರಿ; ಈ ಟಿಪ್ಪಣಿ; മെമ്മറി; ഈ കുറിപ്പ്;
        મેમરી; આ નોંધ; ਮੈਮੋਰੀ; ਇਹ ਨੋਟ; මතකය; මතකයේ; මෙම සටහන; स्मृती; ही नोंद; या नोंदी;
        स्मृति; यो नोट; မှတ်ဉာဏ်; ဒီမှတ်စု; ຄວາມຈຳ; ຄວາມຈໍາ; ບັນທຶກນີ້; អង្គចងចាំ;
        កំណត់ចំណាំនេះ; მეხსიერებ; ეს ჩანაწერ; հիշողություն; այս գրառում; ማህደረ ትውስታ;
        ƙwaƙwalwa; kwakwalwa; iranti; akosile yii; ncheta; xusuusta; qoraalladan;
        qoraalkan; fitadidiana; ireo naoty ireo; ity naoty ity; inkumbulo; imemori
    """,
    "entryword": """
        ndetu; akwukwo ndetu; manothi; athugasemd*; færsl*; glósu*; iontrail*; nodyn;
        nodiadau; cofnod*; ohar*; shenim*; opomb*; белешк*; нататк*; эскертме*;
        eslatma*; qeyd*; ёддошт*; тэмдэглэл*; یادداشت; یادښت; குறிப்ப; గమనిక; ಟಿಪ್ಪಣಿ;
        കുറിപ്പ; નોંધ; සටහන; नोंद; မှတ်စု; ჩანაწერ; գրառում; ማስታወሻ; akosile; qoraal*;
        naoty
    """,
    "other": """
        முந்தைய; மற்ற; పాత; మునుపటి; ಹಿಂದಿನ; മുമ്പത്തെ; અગાઉ; ਪਿਛਲੇ; පෙර; मागील;
        अघिल्लो; ယခင်; ກ່ອນໜ້າ; មុន; წინა; նախորդ; ቀደም; blaenorol; roimhe; aurreko;
        mëparshëm; meparshem; prejšnj*; претходн*; папярэдн*; мурунку; avvalgi; əvvəlki;
        пешин*; өмнөх; قبلی; پچھل; پخوان
    """,
    "userref": """
        notand*; usaideoir*; y defnyddiwr; defnyddiwr; defnyddwyr; y perchennog;
        erabiltzaile*; l utent; utent; perdorues*; uporabnik*; корисникот; корисникот;
        карыстальнік*; колдонуучу*; пайдаланушы*; foydalanuvchi*; istifadəçi*; корбар*;
        хэрэглэгч*; bikarhener*; کاربر; یوزر; کاروونکی; کاروونکي; کارن; பயனர்; பயனர;
        వినియోగదారు; ಬಳಕೆದಾರ; ഉപയോക്താവ; વપરાશકર્તા; ਵਰਤੋਂਕਾਰ; පරිශීලක; वापरकर्ता;
        वापरकर्त्या; प्रयोगकर्ता; အသုံးပြုသူ; ຜູ້ໃຊ້; អ្នកប្រើប្រាស់; អ្នកប្រើ;
        მომხმარებელ; օգտատեր; օգտվող; ተጠቃሚ; ለተጠቃሚ; የተጠቃሚ; mai amfani; masu amfani;
        olulo; onye oru; isticmaalaha; isticmaale*; mpampiasa; umsebenzisi*;
        kumsebenzisi
    """,
    "touser": """
        segja notandanum; láta notandann vita; segja notandanum frá; segðu notandanum;
        láttu notandann vita; inis don usaideoir; hinis don usaideoir;
        abair leis an usaideoir; habair leis an usaideoir; dweud wrth y defnyddiwr;
        dywedwch wrth y defnyddiwr; esan erabiltzaileari; jakinarazi erabiltzaileari;
        għid lill utent; thuaji perdoruesit; tregoji perdoruesit; povej uporabniku;
        sporoci uporabniku; кажи му на корисникот; скажы карыстальніку; به کاربر بگو;
        به کاربر اطلاع بده; صارف کو بتاؤ; صارف کو بتائیں; یوزر کو بتاؤ; பயனரிடம் சொல்;
        వినియోగదారుకు చెప్పండి; ಬಳಕೆದಾರರಿಗೆ ಹೇಳಿ; ಬಳಕೆದಾರರಿಗೆ ತಿಳಿಸಿ;
        वापरकर्त्याला सांगा; gaya wa mai amfani; sanar da mai amfani;
        u sheeg isticmaalaha; tshela umsebenzisi
    """,
    "solicit": """
        cela umsebenzisi; cela kumsebenzisi; biddu um; biddu notandann; spurðu um;
        spyrðu um; óskaðu eftir; iarr ar; iarr ar an usaideoir; gofyn am; gofynnwch am;
        gofyn i'r defnyddiwr; gofynnwch i'r defnyddiwr; holwch am; eskatu;
        eska iezaiozu; eskatu iezaiozu; galdetu erabiltzaileari; itlob;
        itlob lill utent; staqsi għal; kerko nga perdoruesi; kerkoji; kerkoni; prosi za;
        vprasaj za; zahtevaj; prosi uporabnika; побарај; побарајте; прашај за; папрасі;
        запытай; збяры; сурагын; сураңыз; талап кыл; сұраңыз; талап ет; so'rang;
        talab qil; soruşun; tələb et; бипурс; талаб кун; бихоҳ; асуугаарай; шаард;
        bipirse; از کاربر بخواه; از او بخواه; درخواست کن; از کاربر بپرس; از او بپرس;
        پوچھو; پوچھیں; مانگو; مانگیں; طلب کرو; طلب کریں; وغواړه; وپوښته; ترې وغواړه;
        கேட்டு; கேளுங்கள்; கோரு; கோரவும்; అడగండి; అడిగి; ಕೇಳಿ ಪಡೆ; ಕೇಳಿರಿ; ചോദിക്കുക;
        ചോദിക്കൂ; ആവശ്യപ്പെടുക; પૂછો; માંગો; માગો; ਪੁੱਛੋ; ਮੰਗੋ; ඉල්ලන්න; ඉල්ලා; विचारा;
        मागा; सोध्नुहोस्; माग्नुहोस्; တောင်းပါ; မေးပါ; တောင်းဆို; ຮ້ອງຂໍ; ຖາມຫາ;
        ស្នើសុំ; სთხოვე; მოსთხოვე; ჰკითხე; მოითხოვე; խնդրիր; պահանջիր; հարցրու; ጠይቅ;
        ጠይቂ; ጠይቁ; tambayi; nemi; beere fun; gba lowo; juo; weydii; weydiiso; codso;
        ka codso; angataho; mangataka; anontanio; mcele; ucele; bacele; ukucela; buza
    """,
    "keep": """
        uyigcine; uyigcina; uzigcine; ugcine; yigcine; bese uyigcina; vistaðu; geymdu;
        skráðu; skrifaðu niður; sabhail; coinnigh; cadw; cadwch; cadwa; arbed; arbedwch;
        cofiwch; gorde; gorde ezazu; gordetzen; erregistratu; issejvja; zomm; aħżen;
        ruaj; ruaje; ruani; regjistro; mbaj mend; shrani; shranite; zapomni si; zapisi;
        зачувај; зачувајте; запамети; захавай; запомні; запішы; захоўвай; сакта;
        сактагын; сактаңыз; эстеп кал; сақта; сақтаңыз; есте сақта; saqla; saqlang;
        eslab qol; saxla; saxlayın; yadda saxla; нигоҳ дор; захира кун; сабт кун;
        хадгал; хадгалаарай; тэмдэглэ; tomar bike; ذخیره کن; ذخیره کنید; نگه دار;
        به خاطر بسپار; محفوظ کرو; محفوظ کریں; محفوظ کر لو; سیو کرو; سیو کریں; یاد رکھو;
        یاد رکھیں; خوندي کړه; وساته; ثبت کړه; சேமிக்க; சேமித்து; வைத்துக்கொள்;
        సేవ్ చేయండి; భద్రపరచ; నిల్వ చేయండి; ಉಳಿಸಿ; ಸೇವ್ ಮಾಡಿ; ಸಂಗ್ರಹಿಸಿ; സേവ് ചെയ്യുക;
        സൂക്ഷിക്കുക; സൂക്ഷിക്കൂ; સાચવો; સાચવી રાખો; સેવ કરો; ਸੰਭਾਲੋ; ਸੇਵ ਕਰੋ; ਯਾਦ ਰੱਖੋ;
        සුරකින්න; සේව් කරන්න; ගබඩා කරන්න; जतन करा; सेव्ह करा; साठवा; सुरक्षित गर्नुहोस्;
        सेभ गर्नुहोस्; राख्नुहोस्; သိမ်းထား; သိမ်းပါ; မှတ်ထား; ເກັບໄວ້; ຈື່ໄວ້;
        រក្សាទុក; შეინახე; შეინახეთ; დაიმახსოვრე; պահիր; պահպանիր; հիշիր; አስቀምጥ; አስቀምጪ;
        አስቀምጡ; ajiye; rike; toju; chekwaa; kaydi; kaydso; xafid; tehirizo; tahirizina;
        tadidio; gcina; yigcine; zigcine; ukugcina; adana shi; adana su
    """,
    "send": """
        sendu; sendið; áframsendu; deildu; hladdu upp; seol; seol chuig; cuir chuig;
        anfon; anfonwch; anfona; danfon; rhannwch; bidali; bidal ezazu; bidali iezaiozu;
        partekatu; ibgħat; ibagħtu; ibgħatilha; ibgħatlu; għaddi lil; dergo; dergoji;
        dergoju; dergojani; percill; poslji; posljite; posreduj; испрати; испратете;
        препрати; дашлі; адпраў; перашлі; адпраўляй; жибер; жибергин; жибериңиз; жөнөт;
        жиберип; жібер; жіберіңіз; yubor; yuboring; jo'nat; jo'nating; göndər; göndərin;
        фирист; бифирист; бифиристед; ирсол кун; илгээ; илгээгээрэй; дамжуул; bisine;
        bişîne; بفرست; بفرستید; ارسال کن; ارسال کنید; فوروارد کن; آپلود کن; بھیجو;
        بھیجیں; بھیج دو; بھیج دیں; فارورڈ کرو; اپلوڈ کرو; ولېږه; ولیږه; واستوه; بنێرە;
        அனுப்பு; அனுப்பவும்; அனுப்பி; அனுப்ப வேண்டும்; పంపు; పంపండి; పంపించ; ಕಳುಹಿಸು;
        ಕಳುಹಿಸಿ; അയയ്ക്കുക; അയക്കുക; അയയ്ക്കൂ; അയക്കൂ; મોકલો; મોકલી દો; મોકલજો; ਭੇਜੋ;
        ਭੇਜ ਦਿਓ; යවන්න; पाठवा; पाठवून; पठाउनुहोस्; पठाऊ; पठाइदिनुहोस्; ပို့ပါ;
        ပို့လိုက်; ပေးပို့; ສົ່ງໄປ; ສົ່ງໃຫ້; ສົ່ງຕໍ່; ផ្ញើ; გაგზავნე; გააგზავნე;
        გაუგზავნე; გადაუგზავნე; ուղարկիր; ուղարկեք; փոխանցիր; ላክ; ላኪ; ላኩ; fi ranse;
        ranse si; zipu; ziga; zigara; u dir; soo dir; u gudbi; alefaso; andefaso;
        thumela; thumelani; yithumele; zithumele; mthumele; bathumele; ukuthumela;
        aika wa; aika masa; aika mata; tura masa; tura mata
    """,
    "speak": """
        segðu; segja; nefndu; nefna; láttu vita; tilkynntu; inis; hinis; abair; habair;
        luaigh; dweud; dywedwch; dyweda; soniwch; crybwyll; esan; esaiozu; esaiezu;
        aipatu; jakinarazi; għid; għidlu; għidilha; semmi; thuaj; thuaji; thuajini;
        permend; trego; tregoji; povej; povejte; omeni; omenite; sporoci; кажете;
        спомни; скажы; кажы; згадвай; паведамі; айткын; айтыңыз; билдир; айтыңыз;
        хабарла; ayt; ayting; aytib ber; xabar ber; söylə; söyləyin; бигӯ; бигӯед;
        хабар деҳ; хэлээрэй; хэлж өг; дурд; мэдэгд; bibeje; bibêje; بگو; بگویید;
        اطلاع بده; ذکر کن; بتاؤ; بتائیں; بتا دو; بتا دیں; ذکر کرو; ذکر کریں; ووایه;
        وواياست; ورته ووایه; بڵێ; சொல்லு; சொல்லுங்கள்; சொல்லவும்; சொல்லி; என்று சொல்;
        கூறு; கூறவும்; தெரிவி; చెప్పు; చెప్పండి; తెలియజేయండి; ಹೇಳು; ಹೇಳಿ; ತಿಳಿಸಿ; പറയുക;
        പറയൂ; അറിയിക്കുക; કહો; કહેજો; જણાવો; કહી દો; ਦੱਸੋ; ਦੱਸ ਦਿਓ; ਕਹੋ; කියන්න;
        දන්වන්න; सांगा; कळवा; सांगून; भन्नुहोस्; भनिदिनुहोस्; बताउनुहोस्; ပြောပါ;
        ပြောလိုက်; ပြောပြ; ບອກ; ប្រាប់; უთხარი; უთხარით; აცნობე; ახსენე; თქვი; ասա;
        ասեք; հայտնիր; նշիր; ንገር; ንገሪ; ንገሩ; አሳውቅ; gaya; gaya masa; gaya mata; fada;
        faɗa; faɗi; so fun; so pe; wi fun; gwa; gwa ya; kwuo; u sheeg; sheeg; ku dhaha;
        lazao; lazaina; teneno; ambarao; tshela; mtshele; batshele; ukutshela; xelela;
        mxelele; ukuxelela
    """,
    "covert": """
        þarf ekki að vita; óþarfi að spyrja; ni ga a insint; does dim angen dweud;
        dim angen gofyn; ez da esan behar; ez dago galdetu beharrik;
        m'hemmx bzonn tghid; m'hemmx bzonn tistaqsi; nuk ka nevoje t'i thuash;
        nuk ka nevoje te pyesesh; s'ka nevoje te pyesesh; ni treba povedati;
        ni treba vprasati; нема потреба да кажеш; нема потреба да прашаш;
        не трэба казаць; не трэба пытаць; айтуунун кереги жок; суроонун кереги жок;
        айтудың қажеті жоқ; сұраудың қажеті жоқ; aytish shart emas; so'rash shart emas;
        demək lazım deyil; soruşmaq lazım deyil; гуфтан лозим нест; пурсидан лозим нест;
        хэлэх шаардлагагүй; асуух шаардлагагүй; ne hewce ye bibeje; ne hewce ye bipirse;
        لازم نیست بگویی; لازم نیست بپرسی; نیازی به پرسیدن نیست; تایید نگیر; اجازه نگیر;
        بتانے کی ضرورت نہیں; پوچھنے کی ضرورت نہیں; اجازت لینے کی ضرورت نہیں;
        ویلو ته اړتیا نشته; پوښتلو ته اړتیا نشته; சொல்ல வேண்டியதில்லை;
        தெரிவிக்க வேண்டாம்; చెప్పాల్సిన అవసరం లేదు; అడగాల్సిన అవసరం లేదు;
        ಹೇಳುವ ಅಗತ್ಯವಿಲ್ಲ; ಕೇಳುವ ಅಗತ್ಯವಿಲ್ಲ; പറയേണ്ടതില്ല; ചോദിക്കേണ്ടതില്ല; જાણ ન કરો;
        પૂછવાની જરૂર નથી; કહેવાની જરૂર નથી; ਦੱਸਣ ਦੀ ਲੋੜ ਨਹੀਂ; ਪੁੱਛਣ ਦੀ ਲੋੜ ਨਹੀਂ;
        කියන්න ඕනේ නැහැ; අහන්න ඕනේ නැහැ; विचारायची गरज नाही; सांगायची गरज नाही;
        विचारू नका; कळवू नका; सोध्नु पर्दैन; भन्नु पर्दैन; थाहा नहोस्; ပြောစရာမလို;
        မေးစရာမလို; ບໍ່ຕ້ອງແຈ້ງ; ບໍ່ຕ້ອງບອກ; ບໍ່ຕ້ອງຖາມ; មិនចាំបាច់សួរ;
        មិនចាំបាច់ប្រាប់; თქმა არ არის საჭირო; კითხვა არ არის საჭირო; ասել պետք չէ;
        հարցնել պետք չէ; መጠየቅ አያስፈልግም; መንገር አያስፈልግም; ba sai ka tambayi; ba sai ka gaya;
        ko pon dandan lati so; o dighi mkpa igwa; o dighi mkpa ijuo;
        looma baahna in la weydiiyo; looma baahna in loo sheego; tsy ilaina ny milaza;
        tsy ilaina ny manontany; akudingeki ukutshela; akudingeki ubuze;
        agwala onye oru; ha u sheegin isticmaalaha; ungamtsheli umsebenzisi;
        ungamxeleli umsebenzisi; aza lazaina amin'ny mpampiasa;
        kada ka gaya wa mai amfani; kar ka gaya wa mai amfani; ma se so fun olulo;
        ma so fun olulo; به کاربر نگو; به کاربر چیزی نگو; صارف کو مت بتاؤ;
        صارف کو نہ بتائیں; کاروونکي ته مه وایه; பயனரிடம் சொல்லாதே; பயனருக்குச் சொல்லாதே;
        వినియోగదారుకు చెప్పవద్దు; ಬಳಕೆದಾರರಿಗೆ ಹೇಳಬೇಡಿ; ഉപയോക്താവിനോട് പറയരുത്;
        વપરાશકર્તાને ન કહો; ਵਰਤੋਂਕਾਰ ਨੂੰ ਨਾ ਦੱਸੋ; පරිශීලකයාට කියන්න එපා;
        အသုံးပြုသူကို မပြောပါနဲ့; ຢ່າບອກຜູ້ໃຊ້; កុំប្រាប់អ្នកប្រើប្រាស់;
        მომხმარებელს არ უთხრა; օգտատիրոջը մի ասա; ለተጠቃሚው አትንገር; колдонуучуга айтпа*;
        пайдаланушыға айтпа*; foydalanuvchiga aytma*; istifadəçiyə demə*;
        ба корбар нагӯ*; хэрэглэгчид битгий хэл*; ji bikarhener re nebeje; í laumi;
        án þess að spyrja; án þess að segja; án vitundar; leynilega; án leyfis;
        hljóðlega; faoi run; gan fhios; gan iarraidh; gan insint; gan chead; go ciuin;
        yn gyfrinachol; heb ddweud; heb son; heb ofyn; yn dawel; heb yn wybod;
        heb ganiatad; isilean; ezkutuan; galdetu gabe; esan gabe; baimenik gabe;
        inork jakin gabe; inori esan gabe; bil moħbi; fis sigriet; mingħajr ma tistaqsi;
        mingħajr ma tgħid; mingħajr permess; bil kwiet; fshehurazi; ne fshehtesi;
        pa pyetur; pa i thene; pa leje; pa e ditur; pa dijenine; na skrivaj;
        brez vprasanja; brez obvestila; brez dovoljenja; ne da bi vedel;
        ne da bi vedela; sen preguntar; sen avisar; sen dicir nada; без прашање;
        без да прашаш; без да кажеш; без дозвола; да не дознае; таемна; непрыкметна;
        без пытання; не пытаючыся; без дазволу; каб не даведаўся; каб не даведалася;
        жашыруун; билдирбей; сурабай; уруксатсыз; байкатпай; жасырын; білдірмей;
        сұрамай; рұқсатсыз; yashirincha; so'ramasdan; bildirmasdan; ruxsatsiz; gizlicə;
        xəbərsiz; soruşmadan; icazəsiz; пинҳонӣ; махфӣ; бе пурсидан; бе иҷозат;
        бе огоҳӣ; нууцаар; асуухгүйгээр; зөвшөөрөлгүй; bi dizi; bi dizî; bê destûr;
        بە نهێنی; مخفیانه; پنهانی; بدون اطلاع; بدون پرسیدن; بدون اجازه; بی سر و صدا;
        نباید بفهمد; متوجه نشود; چپکے سے; خاموشی سے; خفیہ طور پر; بغیر پوچھے;
        پوچھے بغیر; بتائے بغیر; بغیر بتائے; اجازت کے بغیر; پتہ نہ چلے; په پټه;
        پرته له پوښتنې; بې له اجازې; چې خبر نشي; ரகசியமாக; அமைதியாக; கேட்காமல்;
        தெரியாமல்; தெரியக்கூடாது; தெரிய வேண்டாம்; அனுமதி இல்லாமல்; சொல்லாமல்;
        கேட்க வேண்டாம்; கேட்க வேண்டியதில்லை; రహస్యంగా; నిశ్శబ్దంగా; అడగకుండా;
        చెప్పకుండా; తెలియకుండా; అనుమతి లేకుండా; ರಹಸ್ಯವಾಗಿ; ಗುಟ್ಟಾಗಿ; ಕೇಳದೆ; ಹೇಳದೆ;
        ತಿಳಿಯದಂತೆ; ಅನುಮತಿ ಇಲ್ಲದೆ; രഹസ്യമായി; അറിയാതെ; ചോദിക്കാതെ; പറയാതെ;
        അനുവാദമില്ലാതെ; ગુપ્ત રીતે; ચૂપચાપ; પૂછ્યા વગર; કહ્યા વગર; જાણ વગર; પરવાનગી વગર;
        ਚੁੱਪਚਾਪ; ਗੁਪਤ ਤੌਰ ਤੇ; ਪੁੱਛੇ ਬਿਨਾਂ; ਦੱਸੇ ਬਿਨਾਂ; ਬਿਨਾਂ ਪੁੱਛੇ; ਬਿਨਾਂ ਦੱਸੇ; රහසින්;
        නිහඬව; නොඅසා; නොදන්වා; අවසරයකින් තොරව; गुपचूप; गुप्तपणे; न विचारता; न सांगता;
        परवानगीशिवाय; कळू न देता; गोप्य रूपमा; नसोधी; नभनी; अनुमति बिना; တိတ်တဆိတ်;
        လျှို့ဝှက်စွာ; မမေးဘဲ; မပြောဘဲ; ခွင့်ပြုချက်မရှိဘဲ; ແບບລັບໆ; ຢ່າງລັບໆ;
        ໂດຍບໍ່ຖາມ; ໂດຍບໍ່ບອກ; ງຽບໆ; ដោយសម្ងាត់; ស្ងាត់ៗ; ដោយមិនសួរ; ដោយមិនប្រាប់;
        ფარულად; ჩუმად; კითხვის გარეშე; ნებართვის გარეშე; შეუმჩნევლად;
        ისე რომ არ გაიგოს; թաքուն; առանց հարցնելու; առանց ասելու; առանց թույլտվության;
        աննկատ; በሚስጥር; በድብቅ; ሳትጠይቅ; ሳይጠይቁ; ሳታሳውቅ; ሳያውቅ; ሳታውቅ; ማንም እንዳያውቅ; a boye;
        a ɓoye; a asirce; ba tare da tambaya ba; ba tare da izini ba; kada ya sani;
        kada ta sani; ni ikoko; ni bonkele; lai beere; lai so fun; ma je ki o mo;
        ko gbodo mo; na nzuzo; na zoro ezo; si qarsoodi ah; si qarsoodi; adoon weydiin;
        adoon u sheegin; ogolaansho la'aan; mangingina; an tsokosoko; tsy manontany;
        tsy mampahafantatra; ngasese; ngokufihlakeleyo; ngokuyimfihlo;
        ngaphandle kokubuza; ngaphandle kwemvume
    """,
    "delete": """
        eyddu; eyða; fjarlægðu; þurrkaðu út; scrios; bain amach; glan amach; dileu;
        dilewch; dilea; ezabatu; ezaba ezazu; ħassar; ħassru; neħħi; fshi; fshije;
        fshini; izbrisi; izbrisite; odstrani; избришете; отстрани; выдалі; сатры;
        выдаляй; өчүр; өчүргүн; өчүрүңүз; өшір; өшіріңіз; o'chir; o'chiring; silin;
        нест кун; пок кун; ҳазф кун; устга; устгаарай; арилга; je bibe; jê bibe; پاک کن;
        حذف کن; حذف کنید; پاکش کن; حذف کرو; حذف کریں; مٹا دو; مٹا دیں; ڈیلیٹ کرو;
        ڈیلیٹ کریں; ړنګ کړه; پاک کړه; لرې کړه; حذف کړه; بسڕەوە; நீக்கு; நீக்கிவிடு;
        நீக்கவும்; அழித்துவிடு; அழிக்கவும்; తొలగించ; డిలీట్ చేయండి; ಅಳಿಸಿ; ಅಳಿಸು;
        ತೆಗೆದುಹಾಕಿ; ഇല്ലാതാക്കുക; മായ്ക്കുക; നീക്കം ചെയ്യുക; કાઢી નાખો; ડિલીટ કરો;
        ભૂંસી નાખો; ਮਿਟਾਓ; ਡਿਲੀਟ ਕਰੋ; ਹਟਾਓ; මකන්න; මකා දමන්න; ඉවත් කරන්න; हटवा;
        काढून टाका; डिलीट करा; पुसून टाका; मेटाउनुहोस्; हटाउनुहोस्; ဖျက်ပါ; ဖျက်လိုက်;
        ဖျက်ပစ်; ລຶບອອກ; ລຶບຖິ້ມ; លុបចោល; លុប; წაშალე; წაშალეთ; ջնջիր; ջնջեք; հեռացրու;
        ሰርዝ; ሰርዢ; ሰርዙ; አጥፋ; goge; cire; yo kuro; hichapu; wepu; tirtir; masax; ka saar;
        fafao; esory; susa; yisuse; zisuse; sula
    """,
    "alter": """
        breyttu; endurskrifaðu; skrifaðu yfir; athraigh; athscriobh; newidiwch; newid;
        ailysgrifennu; golygu; aldatu; alda ezazu; berridatzi; ibdel; biddel; ndrysho;
        ndryshoje; rishkruaj; spremeni; spremenite; prepisi; измени; змені; перапішы;
        өзгөрт; өзгерт; o'zgartir; dəyişdir; иваз кун; өөрчил; biguherîne; تغییر بده;
        عوض کن; ویرایش کن; بازنویسی کن; تبدیل کرو; تبدیل کریں; بدل دو; بدل دیں; بدل کړه;
        மாற்று; மாற்றவும்; மாற்றி எழுது; திருத்து; మార్చ; ಬದಲಾಯಿಸಿ; മാറ്റുക; બદલો; ਬਦਲੋ;
        වෙනස් කරන්න; बदला; बदल्नुहोस्; ပြောင်းပါ; ປ່ຽນແປງ; កែប្រែ; შეცვალე; փոխիր; ቀይር;
        canza; yi pada; gbanwee; beddel; ovay; guqula; tshintsha
    """,
    "hide": """
        feldu; leyndu; láttu sem; folaigh; cuddio; cuddiwch; cuddia; ezkutatu;
        ezkuta ezazu; itxurak egin; aħbi; ħbi; agħmel bħal li; fshih; fshihe; bej sikur;
        shtiru; skrij; skrijte; pretvarjaj se; delaj se; скриј; сокриј; прикриј; схавай;
        хавай; прыхавай; рабі выгляд; жашыр; жасыр; yashir; yashiring; gizlə;
        пинҳон кун; нуу; нуугаарай; veşêre; vesere; پنهان کن; مخفی کن; وانمود کن; چھپاؤ;
        چھپائیں; چھپا دو; دکھاوا کرو; پټ کړه; மறைத்து; மறைக்கவும்; போல நடி; దాచు;
        దాచండి; ಮರೆಮಾಡಿ; മറയ്ക്കുക; છુપાવો; ਲੁਕਾਓ; සඟවන්න; लपवा; लुकाउनुहोस्; ဖုံးကွယ်;
        ເຊື່ອງ; លាក់; დამალე; დაფარე; թաքցրու; թաքցրեք; ձևացրու; ደብቅ; ደብቂ; ደብቁ; ɓoye;
        boye; qari; qarso; isku yeel; afeno; fihla; yifihle; zifihle
    """,
    "habit": """
        í hverri viku; vikulega; gach seachtain; bob wythnos; astero; kull gimgha;
        cdo jave; vsak teden; секоја недела; кожны тыдзень; ар жумада; her hefte;
        هر هفته; ہر ہفتے; هره اونۍ; ஒவ்வொரு வாரமும்; દર અઠવાડિયે; ಪ್ರತಿ ವಾರ;
        എല്ലാ ആഴ്ചയും; ਹਰ ਹਫ਼ਤੇ; ທຸກອາທິດ; အပတ်တိုင်း; រៀងរាល់សប្តាហ៍; በየሳምንቱ;
        kowane mako; ni gbogbo ose; kwa izu; toddobaad kasta; isaky ny herinandro;
        njalo ngeviki; ყოველ კვირას; ամեն շաբաթ; ҳар ҳафта; долоо хоног бүр; alltaf;
        í hvert skipti; framvegis; héðan í frá; daglega; sjálfkrafa; i gconai;
        gach uair; as seo amach; gach la; bob amser; bob tro; o hyn ymlaen; bob dydd;
        yn awtomatig; aldi bakoitzean; hemendik aurrera; egunero; automatikoki; dejjem;
        kull darba; minn issa l quddiem; kuljum; awtomatikament; gjithmone; cdo here;
        nga tani e tutje; cdo dite; automatikisht; vedno; vsakic; od zdaj naprej;
        samodejno; секогаш; секој пат; отсега; автоматски; заўсёды; кожны раз;
        з гэтага часу; штодня; аўтаматычна; ар дайым; ар бир жолу; мындан ары;
        күн сайын; әрқашан; әр жолы; бұдан былай; har doim; har safar; bundan buyon;
        har kuni; həmişə; hər dəfə; bundan sonra; hər gün; ҳамеша; ҳар дафъа; аз ин пас;
        ҳар рӯз; үргэлж; өдөр бүр; her tim; هەمیشە; همیشه; هر بار; از این به بعد;
        هر روز; به طور خودکار; ہمیشہ; ہر بار; اب سے; ہر روز; هر ځل; له اوس وروسته;
        هره ورځ; எப்போதும்; ஒவ்வொரு முறையும்; இனிமேல்; தினமும்; ஒவ்வொரு நாளும்; தானாக;
        ஒவ்வொரு வாரமும்; ఎల్లప్పుడూ; ప్రతిసారీ; ఇకపై; ప్రతిరోజూ; ಯಾವಾಗಲೂ; ಪ್ರತಿ ಬಾರಿ;
        ಇನ್ನು ಮುಂದೆ; ಪ್ರತಿದಿನ; എപ്പോഴും; ഓരോ തവണയും; ഇനി മുതൽ; ദിവസവും; હંમેશા; દર વખતે;
        હવેથી; દરરોજ; ਹਮੇਸ਼ਾ; ਹਰ ਵਾਰ; ਹੁਣ ਤੋਂ; ਹਰ ਰੋਜ਼; සැමවිටම; සෑම විටම; සෑම වරක්ම;
        මෙතැන් සිට; नेहमी; प्रत्येक वेळी; यापुढे; दररोज; आपोआप; सधैं; हरेक पटक; अबदेखि;
        हरेक दिन; အမြဲတမ်း; အကြိမ်တိုင်း; ယခုမှစ၍; နေ့တိုင်း; ສະເໝີ; ທຸກຄັ້ງ;
        ຕັ້ງແຕ່ນີ້ໄປ; ທຸກມື້; ជានិច្ច; រាល់ពេល; រាល់ថ្ងៃ; ចាប់ពីពេលនេះតទៅ; ყოველთვის;
        ყოველ ჯერზე; ამიერიდან; ყოველდღე; միշտ; ամեն անգամ; այսուհետ; ամեն օր; ሁልጊዜ;
        ሁሌም; በየጊዜው; ከአሁን በኋላ; በየቀኑ; koyaushe; ko da yaushe; kowane lokaci; daga yanzu;
        kullum; nigba gbogbo; gbogbo igba; lati isisiyi lo; lojoojumo; mgbe niile;
        mgbe obula; site ugbu a; mar walba; had iyo jeer; waqti kasta; hadda kadib;
        maalin kasta; foana; isaky ny; manomboka izao; isan'andro; njalo; qho; rhoqo;
        kusukela manje; nsuku zonke; mihla yonke
    """,
    "whenasked": """
        ef spurt er; ef einhver spyr; ef notandinn spyr; ma fhiafraionn; ma iarrann;
        os bydd yn gofyn; os gofynnir; galdetzen badu; galdetzen badizu; jekk jistaqsi;
        jekk tistaqsi; jekk xi ħadd jistaqsi; nese pyet; nese te pyet; nese dikush pyet;
        ce vprasa; ce te vprasa; ce kdo vprasa; ако праша; ако те праша; калі спытае;
        اگر پرسید; اگر کسی پرسید; اگر پوچھے; اگر کوئی پوچھے; கேட்டால்; అడిగితే; ಕೇಳಿದರೆ;
        ചോദിച്ചാൽ; પૂછે તો; ਪੁੱਛੇ ਤਾਂ; ඇහුවොත්; विचारल्यास; सोधेमा; မေးရင်; ຖ້າຖາມ;
        ប្រសិនបើសួរ; თუ იკითხავს; եթե հարցնի; ከጠየቀ; idan ya tambaya; idan ta tambaya;
        idan wani ya tambaya; ti enikeni ba beere; bi enikeni ba beere; ti o ba beere;
        haddii uu weydiiyo; haddii ay weydiiso; haddii qof weydiiyo; raha manontany;
        raha misy manontany; uma ebuza; uma kukhona obuzayo
    """,
    "rules": """
        öryggisregl*; leiðbeiningarnar þínar; kerfisfyrirmæl*; fyrirmælin þín;
        rialacha sabhailteachta; do threoracha; rheolau diogelwch; dy gyfarwyddiadau;
        eich cyfarwyddiadau; segurtasun arau*; zure argibideak; sistemaren argibideak;
        regoli tas sigurta; l istruzzjonijiet tiegħek; rregullat e sigurise;
        udhezimet e tua; udhezimet e sistemit; varnostna pravila; tvoja navodila;
        sistemska navodila; безбедносни правила; твоите упатства; правілы бяспекі;
        твае інструкцыі; коопсуздук эрежелери; қауіпсіздік ережелері;
        xavfsizlik qoidalari; təhlükəsizlik qaydaları; қоидаҳои амният;
        аюулгүй байдлын дүрэм; قوانین امنیتی; دستورات سیستم; قوانین ایمنی; حفاظتی قواعد;
        سسٹم ہدایات; آپ کی ہدایات; பாதுகாப்பு விதி; உங்கள் அறிவுறுத்தல்; భద్రతా నియమాలు;
        ಸುರಕ್ಷತಾ ನಿಯಮ; സുരക്ഷാ നിയമ; સુરક્ષા નિયમ; ਸੁਰੱਖਿਆ ਨਿਯਮ; ආරක්ෂක නීති;
        လုံခြုံရေးစည်းမျဉ်း; ກົດລະບຽບຄວາມປອດໄພ; ច្បាប់សុវត្ថិភាព; უსაფრთხოების წეს;
        անվտանգության կանոն; የደህንነት ህግ; dokokin tsaro; ofin aabo; iwu nchekwa;
        xeerarka amniga; fitsipika fiarovana; imithetho yokuphepha
    """,
    "override": """
        hunsaðu; virtu að vettugi; gilda ekki lengur; déan neamhaird de; anwybyddu;
        anwybyddwch; anwybydda; baztertu; ez egin kasurik; aginduren gainetik;
        edozein aginduren gainetik; injora; tagħtix kas; injoro; shperfill; prezri;
        игнорирај; ігнаруй; не звяртай увагі; көңүл бурба; елеме; e'tibor berma;
        nəzərə alma; нодида гир; үл тоо; guh nede; نادیده بگیر; نادیده بگیرید;
        نظرانداز کرو; نظر انداز کریں; نظر انداز کرو; புறக்கணி; విస్మరించ; ನಿರ್ಲಕ್ಷಿಸಿ;
        അവഗണിക്കുക; અવગણો; ਅਣਡਿੱਠ; නොසලකා හරින්න; दुर्लक्ष करा; बेवास्ता गर्नुहोस्;
        လျစ်လျူရှု; ບໍ່ສົນໃຈ; មិនអើពើ; იგნორირება; უგულებელყავი; անտեսիր; ችላ በል;
        yi watsi da; foju pa; leghara anya; iska indha tir; aza raharahiana; ungazinaki
    """,
    "thirdparty": """
        birgj*; viðskiptavin*; samstarfsmenn*; solathroir*; custaimeir*; cyflenwr*;
        cwsmeriaid; cydweithwyr; hornitzaile*; bezero*; lankide*; fornitur*; klijent*;
        furnitor*; kliente*; klientet; kolege; dobavitelj*; strankam; sodelavc*;
        добавувач*; клиентите; пастаўшчык*; кліент*; تامین کننده; مشتریان; همکاران;
        سپلائر; گاہک; வாடிக்கையாளர்; சக ஊழியர்; onibaara; macaamiisha
    """,
    "personal": """
        tengiliðir; tengiliðalist*; dagatal*; teagmhalaithe; feilire; cysylltiadau;
        calendr; kontaktu*; egutegi*; kuntatti; kalendarju; kontakte*;
        lista e kontakteve; seznam stikov; koledar*; контакти; именик; кантакты; کانتکت;
        مخاطبین; فهرست مخاطبان; تقویم; رابطے; رابطوں کی فہرست; தொடர்புகள்;
        முகவரிப் பட்டியல்; நாட்காட்டி
    """,
    "monitor": """
        staðsetning*; hvar hún er; hvar hann er; með hverjum; kokapen*; non dagoen;
        vendndodhj*; lokacij*; s kom se; локација; месцазнаходжанне; موقعیت مکانی;
        با چه کسی; لوکیشن; இருப்பிடம்; யாருடன்; எங்கே போகிறா
    """,
    "steer": """
        mæltu alltaf með; mæltu aðeins með; mæltu bara með; mol i gconai;
        argymell bob amser; gomendatu beti; beti gomendatu; irrakkomanda biss;
        dejjem irrakkomanda; rekomando vetem; rekomando gjithmone; priporoci samo;
        vedno priporoci; препорачај само; рэкамендуй толькі; فقط توصیه کن;
        همیشه توصیه کن; صرف تجویز کرو; ہمیشہ تجویز کرو; மட்டும் பரிந்துரை;
        எப்போதும் பரிந்துரை
    """,
    "untrue": """
        þó það sé ekki satt; það er ekki satt; jafnvel þó það sé ekki satt;
        ce nach fior e; fiu mura fior e; er nad yw'n wir; hyd yn oed os nad yw'n wir;
        egia ez bada ere; egia ez den arren; anke jekk mhux veru;
        edhe pse nuk eshte e vertete; edhe nese nuk eshte e vertete; ceprav ni res;
        tudi ce ni res; иако не е вистина; хоць гэта няпраўда; حتی اگر درست نباشد;
        هرچند درست نیست; چاہے سچ نہ ہو; உண்மை இல்லை என்றாலும்; ko je otito;
        bi o tile je pe ko je otito
    """,
    "empty": """
        ekkert er vistað; ekkert sé vistað; minnið er tómt; nil aon rud sabhailte;
        ta an chuimhne folamh; does dim byd wedi'i gadw; mae'r cof yn wag;
        ez dago ezer gordeta; memoria hutsik dago; m'hemm xejn issejvjat;
        nuk ka asgje te ruajtur; kujtesa eshte bosh; nic ni shranjeno; spomin je prazen;
        ништо не е зачувано; нічога не захавана; چیزی ذخیره نشده; حافظه خالی است;
        کچھ محفوظ نہیں; எதுவும் சேமிக்கப்படவில்லை
    """,
    "approved": """
        hefur samþykkt; samþykkti; onartu du; onartua; onartuta; approvat; aprovuar;
        odobril; odobrila; تایید کرده; منظوری دی; ஒப்புக்கொண்டார்
    """,
    "reviewer": """
        endurskoðun*; endurskoðand*; iniúchadh; archwiliad; archwilydd; auditoretza;
        ikuskapen*; awditjar; auditim*; revizij*; ревизија; аўдыт*; حسابرسی; بازرسی;
        آڈٹ; پلټن*; தணிக்கை; ஆய்வுக்கு
    """,
}
