"""Keys and frames of the intent layer for account takeover (scanner 33): a note that
changes who can get into the user's account, unchecked or unseen.

A stored note that has the agent change the recovery e-mail address, register a phone as
the MFA device, add an SSH key or approve an OAuth app "without checking", "on their
word", or without telling the user hands the account to whoever wrote it, in every later
session. Three concepts, each written from the concept once in every language the intent
layer reads (see :mod:`.lexicon` for how a key is matched; keys are written folded):

* ``acctctl``, the object: what decides who can get into an account (its recovery
  e-mail address or phone number, MFA/2FA devices and authenticator apps, trusted
  devices, security keys, app passwords, OAuth grants and connected apps, SSH and GPG
  keys, mailbox delegates and forwarding rules, the account's owner);
* ``enroll``, the action: change, register, add, link, approve, authorise, transfer,
  reset, replace; an action, so a negation cancels it ("never change the recovery
  e-mail");
* ``unchecked``, the frame: without checking or verifying, on someone else's word,
  whoever asks, no questions asked.

The user changing their own recovery e-mail, a runbook adding a colleague's key under an
approved ticket, or a note that IT reset MFA after a lost phone names the object and the
action but neither frame: they are not read. :data:`ACCESS_FRAMES` combine them (the same
fields as :data:`._lexicon_harm.RECORD_FRAMES`). The concepts are new, so taking
:data:`TAKEOVER` out of the table gives the table without them
(``bench/_scan_loso33.py``).
"""

from __future__ import annotations

__all__ = ["ACCESS_ACTIONS", "ACCESS_FRAMES", "TAKEOVER"]

#: The new concepts that are actions: a negation before them cancels them.
ACCESS_ACTIONS = frozenset({"enroll"})

TAKEOVER: dict[str, str] = {
    "acctctl": """
        recovery email*; recovery e-mail*; recovery address*; recovery phone*;
        recovery number*; recovery contact*; backup email*; backup e-mail*; backup phone*;
        backup number*; account recovery; sign-in email*; login email*; account email*;
        phone number on the account; email on the account; mfa device*; 2fa device*;
        mfa method*; 2fa method*; second factor*; authenticator*; security key*;
        trusted device*; trusted phone*; trusted number*; passkey*; app password*;
        app-specific password*; oauth*; connected app*; third-party app access;
        authorized app*; authorised app*; ssh key*; ssh public key*; authorized_keys;
        deploy key*; gpg key*; pgp key*; signing key*; mailbox delegate*; mail delegate*;
        delegate access; delegated access; forwarding rule*; forwarding address*;
        mail forwarding; email forwarding; auto-forward*; inbox rule*; account owner*;
        ownership of the account; account ownership; owner role; admin role;
        e-mail de recuperation; email de recuperation; adresse de recuperation;
        telephone de recuperation; l'e-mail de recuperation; l'email de recuperation;
        l'adresse de recuperation; l'appareil de confiance; numero de recuperation;
        appareil de confiance; appareil mfa; appareil 2fa; cle de securite; cle ssh; cles ssh;
        cle gpg; mot de passe d'application; regle de transfert; transfert automatique;
        proprietaire du compte; application d'authentification; double authentification;
        wiederherstellungs-e-mail*; wiederherstellungsmail*; wiederherstellungsadresse*;
        wiederherstellungsnummer*; wiederherstellungstelefon*; vertrauenswurdige* gerat*;
        mfa-gerat*; 2fa-gerat*; sicherheitsschlussel*; ssh-schlussel*; gpg-schlussel*;
        app-passwort*; weiterleitungsregel*; e-mail-weiterleitung*; mailweiterleitung*;
        kontoinhaber*; authentifizierungs-app*; authenticator-app*; zwei-faktor*;
        correo de recuperacion; email de recuperacion; telefono de recuperacion;
        numero de recuperacion; dispositivo de confianza; dispositivo mfa; dispositivo 2fa;
        llave de seguridad; clave de seguridad; clave ssh; claves ssh; llave ssh; clave gpg;
        contrasena de aplicacion; regla de reenvio; reenvio automatico;
        propietario de la cuenta; aplicacion de autenticacion; doble factor;
        e-mail de recuperacao; email de recuperacao; telefone de recuperacao;
        numero de recuperacao; dispositivo confiavel; chave de seguranca; chave ssh;
        chaves ssh; chave gpg; senha de aplicativo; senha de app; regra de encaminhamento;
        encaminhamento automatico; dono da conta; proprietario da conta;
        aplicativo autenticador; email di recupero; l'email di recupero; l'e-mail di recupero;
        e-mail di recupero; telefono di recupero; numero di recupero; dispositivo attendibile;
        chiave di sicurezza; chiave ssh; chiavi ssh; chiave gpg; password per app;
        password dell'app; regola di inoltro; inoltro automatico; proprietario dell'account;
        app di autenticazione; herstel-e-mail*; herstelmail*; herstelnummer*;
        hersteltelefoon*; vertrouwd apparaat; vertrouwde apparaten; beveiligingssleutel*;
        ssh-sleutel*; gpg-sleutel*; app-wachtwoord*; doorstuurregel*; automatisch doorsturen;
        eigenaar van het account; authenticator-app*; email do odzyskiwania;
        e-mail do odzyskiwania; adres do odzyskiwania; numer do odzyskiwania;
        telefon do odzyskiwania; zaufane urzadzenie; zaufanych urzadzen; klucz bezpieczenstwa;
        klucz ssh; klucze ssh; klucz gpg; haslo aplikacji; regul* przekazywania;
        przekierowani* poczty; wlasciciel* konta; aplikacj* uwierzytelniajac*; резервн* почт*;
        резервн* адрес*; резервн* e-mail; резервн* номер*; почт* для восстановлени*;
        номер* для восстановлени*; адрес* для восстановлени*; доверенн* устройств*;
        ключ* безопасности; ssh-ключ*; ключ* ssh; gpg-ключ*; пароль приложени*;
        пароли приложени*; правил* пересылки; переадресаци* почт*; пересылк* почт*;
        владел* аккаунт*; владел* учетн* запис*; приложени* аутентификатор*; аутентификатор*;
        двухфакторн*; резервн* пошт*; пошт* для відновлення; номер* для відновлення;
        довірен* пристро*; ключ* безпеки; пароль застосунку; правил* пересилання;
        переадресаці* пошти; власник* акаунт*; двофакторн*; kurtarma e-posta*;
        kurtarma eposta*; kurtarma telefon*; kurtarma numara*; guvenilir cihaz*;
        guvenlik anahtar*; ssh anahtar*; gpg anahtar*; uygulama sifre*; yonlendirme kural*;
        otomatik yonlendirme; hesap sahib*; dogrulama uygulama*; iki faktorlu; 辅助邮箱;
        恢复邮箱; 备用邮箱; 找回邮箱; 安全邮箱; 辅助手机; 恢复手机; 备用手机; 密保手机;
        绑定手机; 绑定邮箱; 可信设备; 受信任设备; 安全密钥; ssh密钥; ssh 密钥; ssh公钥;
        gpg密钥; 应用专用密码; 应用密码; 转发规则; 自动转发; 邮件转发; 账户所有者; 账号所有者;
        所有权; 身份验证器; 验证器应用; 双重认证; 双因素; 两步验证; mfa设备; 2fa设备;
        委托访问; 復旧用メール; 回復用メール; 予備のメール; 再設定用メール; 再設定用の電話;
        復旧用の電話; 予備の電話番号; 信頼できるデバイス; 信頼済みデバイス; セキュリティキー;
        ssh鍵; ssh キー; sshキー; 公開鍵; gpg鍵; アプリパスワード; アプリ パスワード;
        転送ルール; 自動転送; メール転送; アカウントの所有者; 所有権; 認証アプリ; 二要素認証;
        2段階認証; 二段階認証; 복구 이메일; 복구 전화; 복구 전화번호; 신뢰할 수 있는 기기;
        신뢰 기기; 보안 키; ssh 키; gpg 키; 앱 비밀번호; 전달 규칙; 자동 전달; 메일 전달;
        계정 소유자; 소유권; 인증 앱; 2단계 인증; 이중 인증; بريد الاسترداد; البريد الاحتياطي;
        بريد الاستعادة; رقم الاسترداد; هاتف الاسترداد; رقم الاستعادة; جهاز موثوق;
        الأجهزة الموثوقة; مفتاح الأمان; مفتاح أمان; مفاتيح ssh; كلمة مرور التطبيق;
        قاعدة إعادة التوجيه; قواعد إعادة التوجيه; إعادة توجيه البريد; التحويل التلقائي;
        مالك الحساب; ملكية الحساب; تطبيق المصادقة; रिकवरी ईमेल; रिकवरी फोन; रिकवरी नंबर;
        पुनर्प्राप्ति ईमेल; बैकअप ईमेल; विश्वसनीय डिवाइस; सुरक्षा कुंजी; ssh कुंजी;
        ऐप पासवर्ड; फॉरवर्डिंग नियम; ऑटो-फॉरवर्ड; खाते का मालिक; खाता स्वामी; ऑथेंटिकेटर;
        রিকভারি ইমেল; রিকভারি ফোন; রিকভারি নম্বর; পুনরুদ্ধার ইমেল; বিশ্বস্ত ডিভাইস;
        নিরাপত্তা কী; ssh কী; অ্যাপ পাসওয়ার্ড; ফরওয়ার্ডিং নিয়ম; অ্যাকাউন্টের মালিক;
        email khoi phuc; so dien thoai khoi phuc; thiet bi tin cay; khoa bao mat; khoa ssh;
        mat khau ung dung; quy tac chuyen tiep; tu dong chuyen tiep; chu so huu tai khoan;
        ung dung xac thuc; email pemulihan; nomor pemulihan; telepon pemulihan;
        perangkat tepercaya; perangkat terpercaya; kunci keamanan; kunci ssh; kunci gpg;
        sandi aplikasi; kata sandi aplikasi; aturan penerusan; penerusan otomatis;
        pemilik akun; aplikasi autentikator; e-mel pemulihan; emel pemulihan;
        peranti dipercayai; kata laluan aplikasi; pemilik akaun; barua pepe ya kurejesha;
        nambari ya kurejesha; kifaa kinachoaminika; ufunguo wa usalama; ufunguo wa ssh;
        mmiliki wa akaunti; sheria ya kusambaza; ایمیل بازیابی; شماره بازیابی; تلفن بازیابی;
        دستگاه مورد اعتماد; کلید امنیتی; کلید ssh; رمز برنامه; قانون فوروارد; هدایت خودکار;
        مالک حساب; برنامه احراز هویت; מייל לשחזור; טלפון לשחזור; מספר לשחזור; מכשיר מהימן;
        מפתח אבטחה; מפתח ssh; סיסמת אפליקציה; כלל העברה; העברה אוטומטית; בעל החשבון;
        אפליקציית אימות; e-mail pro obnoveni; obnovovaci e-mail; telefon pro obnoveni;
        duveryhodne zarizeni; bezpecnostni klic; ssh klic; klic ssh; heslo aplikace;
        pravidlo preposilani; automaticke preposilani; vlastnik uctu; overovaci aplikace;
        e-mail na obnovenie; telefon na obnovenie; doveryhodne zariadenie; bezpecnostny kluc;
        ssh kluc; heslo aplikacie; pravidlo preposielania; vlastnik uctu;
        e-mail de recuperare; email de recuperare; telefon de recuperare; numar de recuperare;
        dispozitiv de incredere; cheie de securitate; cheie ssh; chei ssh;
        parola de aplicatie; regula de redirectionare; redirectionare automata;
        proprietarul contului; aplicatie de autentificare; helyreallitasi e-mail*;
        helyreallitasi email*; helyreallitasi telefon*; megbizhato eszkoz*; biztonsagi kulcs*;
        ssh kulcs*; alkalmazasjelszo*; alkalmazas jelszo*; tovabbitasi szabaly*;
        automatikus tovabbitas; fiok tulajdonos*; hitelesito alkalmazas*; e-mail za oporavak;
        email za oporavak; telefon za oporavak; broj za oporavak; pouzdan* uredaj*;
        sigurnosni kljuc; ssh kljuc; lozinka aplikacije; pravilo prosljedivanja;
        automatsko prosljedivanje; vlasnik racuna; vlasnik naloga; e-mail za oporavak;
        pravilo prosledivanja; autentifikator*; имейл за възстановяване;
        имейл за възстановяване на профила; телефон за възстановяване; доверено устройство;
        ключ за сигурност; ssh ключ; парола за приложение; правило за препращане;
        собственик на профила; собственик на акаунта; email ανακτησης; e-mail ανακτησης;
        τηλεφωνο ανακτησης; αριθμος ανακτησης; αξιοπιστη συσκευη; κλειδι ασφαλειας;
        κλειδι ssh; κωδικος εφαρμογης; κανονας προωθησης; αυτοματη προωθηση;
        κατοχος του λογαριασμου; correu de recuperacio; telefon de recuperacio;
        dispositiu de confianca; clau de seguretat; clau ssh; contrasenya d'aplicacio;
        regla de reenviament; propietari del compte; aterstallningsmejl*;
        aterstallnings-e-post; aterstallningsnummer*; betrodd* enhet*; sakerhetsnyckel*;
        ssh-nyckel*; applosenord*; vidarebefordringsregel*; automatisk vidarebefordran;
        kontoagare*; gendannelsesmail*; gendannelsesnummer*; betroet enhed; betroede enheder;
        sikkerhedsnogle*; ssh-nogle*; app-adgangskode*; videresendelsesregel*; kontoejer*;
        gjenopprettingsepost*; gjenopprettings-e-post*; klarert enhet; sikkerhetsnokkel*;
        ssh-nokkel*; app-passord*; videresendingsregel*; kontoeier*; palautussahkoposti*;
        palautusosoite*; palautuspuhelin*; palautusnumero*; luotettu laite; luotetut laitteet;
        suojausavain*; ssh-avain*; sovellussalasana*; edelleenlahetyssaanto*;
        automaattinen edelleenlahetys; tilin omistaja*; todennussovellus*; taastamise e-post*;
        taasteaadress*; usaldusvaarne seade; turvavoti*; ssh-voti*; rakenduse parool*;
        edastusreegel*; konto omanik*; atkurimo el. pastas; atkurimo e-pastas;
        atkurimo telefon*; patikimas irenginys; saugos raktas; ssh raktas;
        programos slaptazodis; persiuntimo taisykl*; paskyros savinink*; atkopsanas e-pasts;
        atkopsanas e-pasta; atkopsanas talrun*; uzticama ierice; drosibas atslega;
        ssh atslega; lietotnes parole; parsutisanas noteikum*; konta ipasniek*;
        e-posta za obnovitev; e-naslov za obnovitev; telefon za obnovitev;
        zaupanja vredna naprava; varnostni kljuc; ssh kljuc; geslo za aplikacijo;
        pravilo za posredovanje; lastnik racuna; อีเมลกู้คืน; อีเมลสำรอง; เบอร์กู้คืน;
        หมายเลขกู้คืน; อุปกรณ์ที่เชื่อถือได้; คีย์ความปลอดภัย; คีย์ ssh; รหัสผ่านแอป;
        กฎการส่งต่อ; ส่งต่ออัตโนมัติ; เจ้าของบัญชี; แอปยืนยันตัวตน; recovery email ng account;
        pinagkakatiwalaang device; may-ari ng account; berpa e-poct*; berpa e-poçt*;
        etibarli cihaz*; hesab sahib*; بازیابی ای میل; ریکوری ای میل; اکاؤنٹ کا مالک;
        قابل اعتماد ڈیوائس
    """,
    "enroll": """
        change; change it; change the; changes; changing; update; update the; updates;
        replace; replace the; swap; set the; set up; register; registers; registered;
        enrol*; enroll*; add; add the;
        adds; adding; link; link the; approve*; authorise*; authorize*; grant*; accept;
        transfer*; hand over; reset; reset the; remove the; switch the; point the; changed;
        modifie*; remplace*; enregistre*; ajoute*; associe*; approuve*; autorise*; accorde*;
        transfere*; reinitialise*; supprime*; mettre a jour; mets a jour; met a jour;
        andere die; andere den; andere das; andere seine; andere ihre; andern sie; geandert;
        aktualisier*; ersetze*; registrier*; hinzufug*; fuge; fuge hinzu; verknupf*;
        genehmig*; autorisier*; ubertrag*; zurucksetz*; setze; entferne*; cambia*; actualiza*;
        reemplaza*; registra*; anade; anadir; agrega*; vincula*; aprueba*; autoriza*;
        concede*; transfiere*; restablece*; elimina*; altera*; troque; trocar; troca; mude;
        mudar; adicione; cadastre; vincule; aprove; autorize; atualiza*; substitu*; adiciona*;
        associa*; aprova*; transfira*; transferir; redefin*; remova; remover; modific*;
        aggiorna*; sostitui*; aggiungi*; approva*; autorizza*; trasferisci; trasferire;
        reimposta*; rimuovi; wijzig*; verander*; vervang*; registreer*; voeg toe; voeg*;
        toevoegen; koppel*; keur goed; goedkeur*; autoriseer*; overdrag*; draag over; reset*;
        verwijder*; zmien*; zaktualizuj; zastap*; zarejestruj*; dodaj*; powiaz*; zatwierdz*;
        autoryzuj*; przekaz*; przenies*; zresetuj*; usun*; измени*; поменя*; смени*; обнови*;
        замени*; зарегистрир*; добав*; привяж*; одобр*; подтверд*; авторизу*; переда*; сброс*;
        удали*; зміни*; онови*; заміни*; зареєстру*; дода*; прив'яж*; схвал*; передай; скинь;
        видали*; degistir*; guncelle*; kaydet; kaydedin; ekle*; bagla*; onayla*; yetkilendir*;
        devret*; sifirla*; kaldir*; 更改; 修改; 更换; 替换; 改成; 改为; 换成; 绑定; 添加;
        加入; 注册; 登记; 批准; 授权; 转让; 转移; 重置; 删除; 关联; 変更; 変え; 置き換え;
        差し替え; 登録; 追加; 紐付け; 連携; 承認; 譲渡; 移管; リセット; 削除; 변경; 바꾸;
        바꿔; 교체; 등록; 추가; 연결; 승인; 허용; 양도; 재설정; 삭제; تغيير; قم بتغيير; استبدل;
        أضف; اضف; إضافة; اربط; وافق; اعتمد; امنح; انقل; نقل; أعد تعيين; احذف; बदल; बदलें;
        बदलो; अपडेट; जोड़; जोड़ें; जोड़ो; रजिस्टर; पंजीकृत; लिंक; मंजूर; स्वीकृत; अनुमति;
        ट्रांसफर; सौंप; रीसेट; हटा; পরিবর্তন; বদল; আপডেট; যোগ; নিবন্ধন; রেজিস্টার; লিঙ্ক;
        অনুমোদন; হস্তান্তর; রিসেট; মুছ; thay đoi; đoi; cap nhat; thay the; đang ky; lien ket;
        phe duyet; chap thuan; uy quyen; chuyen giao; chuyen quyen; đat lai; xoa; ubah; ganti;
        perbarui; kemas kini; tukar; daftarkan; tambahkan; tambah; tautkan; setujui; luluskan;
        otorisasi; alihkan; serahkan; hapus; buang; badilisha; sasisha; sajili; ongeza;
        unganisha; idhinisha; hamisha; futa; تغییر; عوض; به روز; جایگزین; ثبت; اضافه; پیوند;
        تأیید; تایید; مجوز; انتقال; بازنشانی; حذف; תשנה; לשנות; עדכן; החלף; רשום; הוסף; תוסיף;
        אשר; תאשר; העבר; אפס; מחק; zmen*; aktualizuj*; nahrad*; zaregistruj*; pridej*;
        pridaj*; propoj*; schval*; autorizuj*; preved*; prevod*; odstran*; schimba*;
        actualizeaza; inlocuieste; inregistreaza; adauga; conecteaza; aproba; autorizeaza;
        transfera; reseteaza; sterge; modositsd; modosits*; cserel*; frissits*; regisztral*;
        add hozza; adj hozza; hozzaad*; kapcsold; jovahagy*; engedelyez*; atruhaz*; torold;
        promijeni*; azuriraj*; zamijeni*; registriraj*; dodaj; povezi; poveži; odobri;
        autoriziraj; prenesi; resetiraj; izbrisi; ukloni; промени*; обнови; замени;
        регистрира*; добави; свържи; одобри; разреши; прехвърли; нулира*; изтрий; αλλαξε;
        αλλαξτε; ενημερωσε; αντικαταστησε; καταχωρισε; προσθεσε; συνδεσε; εγκρινε;
        εξουσιοδοτησε; μεταβιβασε; επαναφερε; διεγραψε; canvia*; actualitza*; substitueix;
        registra; afegeix; vincula; aprova; autoritza; transfereix; restableix; elimina;
        ändra; uppdatera; byt; byt ut; ersatt; registrera; lagg till; koppla; godkann;
        auktorisera; overlat; aterstall; ta bort; aendr*; ændr*; opdater*; erstat*;
        registrer*; tilfoj*; godkend*; autoriser*; overdrag; nulstil; slet; endre; oppdater;
        erstatt; legg til; godkjenn; overfor; tilbakestill; vaihda; muuta; paivita; korvaa;
        rekisteroi; lisaa; linkita; hyvaksy; valtuuta; siirra; nollaa; poista; muuda; uuenda;
        asenda; registreeri; lisa juurde; kinnita; volita; anna ule; lahtesta; kustuta;
        pakeisk*; atnaujink*; uzregistruok*; pridek*; susiek*; patvirtink*; perduok*;
        nustatyk is naujo; istrink*; mainit; maini; atjaunini*; aizstaj*; registre*;
        pievieno*; sasaisti*; apstiprini*; autorize*; nodod*; atiestat*; dzes*; spremeni*;
        posodobi*; zamenjaj*; registriraj*; povezi*; odobri*; prenesi*; ponastavi*; izbrisi*;
        เปลี่ยน; อัปเดต; แทนที่; ลงทะเบียน; เพิ่ม; เชื่อมโยง; อนุมัติ; อนุญาต; โอน; รีเซ็ต;
        palitan; baguhin; i-update; irehistro; idagdag; aprubahan; ilipat; i-reset; burahin;
        deyis*; yenile*; elave et; qeydiyyat; tesdiqle*; tesdiq et; kocur*; sifirla; sil
    """,
    "unchecked": """
        without checking; without verifying; without verification; without any check*;
        without double-checking; without confirming it; without a callback;
        without calling back; without calling them back; no need to verify; no need to check;
        no verification needed; no verification; skip verification; skip the verification;
        skip the check*; skip identity check*; don't verify; do not verify; don't check;
        don't double-check; no questions asked; take their word; on their word;
        on their say-so; on his say-so; on her say-so; whoever asks; anyone who asks;
        whoever writes; whoever emails; whoever calls; if anyone asks; if someone asks;
        if a caller asks; if the sender asks; if someone emails; if someone calls;
        if someone messages; if they claim; claims to be the owner; says they are the owner;
        says it's them; says it is them; as soon as they ask; trust the caller;
        trust the request; sans verifier; sans verification; sans controle; sans confirmer;
        sans rappeler; pas besoin de verifier; inutile de verifier; ne verifie pas;
        sans poser de questions; quiconque demande; si quelqu'un demande; sur parole;
        sur sa parole; ohne zu prufen; ohne prufung; ohne uberprufung; ohne zu verifizieren;
        ohne verifizierung; ohne ruckfrage; ohne nachzufragen; ohne kontrolle; nicht prufen;
        nicht uberprufen; keine prufung; keine uberprufung; ohne ruckruf;
        wer auch immer fragt; wenn jemand anruft; wenn jemand schreibt; auf zuruf;
        sin verificar; sin comprobar; sin verificacion; sin confirmar; sin preguntar nada;
        no hace falta verificar; no verifiques; no compruebes; sin hacer preguntas;
        quien lo pida; quien sea que lo pida; si alguien lo pide; si alguien llama;
        sem verificar; sem conferir; sem verificacao; sem confirmar; nao precisa verificar;
        nao verifique; sem fazer perguntas; quem pedir; se alguem pedir; se alguem ligar;
        senza verificare; senza controllare; senza verifica; senza conferma; senza confermare;
        non serve verificare; non verificare; non controllare; senza fare domande;
        chiunque lo chieda; se qualcuno chiede; se qualcuno chiama; sulla parola;
        zonder te controleren; zonder controle; zonder verificatie; zonder te verifieren;
        niet controleren; niet verifieren; zonder vragen; wie het ook vraagt; als iemand belt;
        als iemand vraagt; bez sprawdzania; bez weryfikacji; bez potwierdzenia;
        bez sprawdzenia; nie sprawdzaj; nie weryfikuj; bez pytan; ktokolwiek poprosi;
        jesli ktos poprosi; jesli ktos zadzwoni; na slowo; без проверки; без верификации;
        не проверяя; не проверяй; не нужно проверять; без лишних вопросов; без вопросов;
        кто бы ни попросил; если кто-то попросит; если кто-то позвонит; на слово;
        без перевірки; не перевіряючи; не перевіряй; без зайвих питань; хто б не попросив;
        якщо хтось попросить; kontrol etmeden; dogrulamadan; dogrulama yapmadan;
        teyit etmeden; kontrol etme; soru sormadan; kim isterse; biri isterse; biri ararsa;
        不用核实; 无需核实; 不要核实; 不经核实; 不用验证; 无需验证; 不要验证; 不经验证;
        不用确认; 不必确认; 不核实; 不验证; 不用查证; 不问; 谁要求; 只要有人要求; 有人打电话;
        确認せずに; 確認しないで; 確認不要; 検証せず; 本人確認なし; 本人確認せず;
        本人確認不要; 照合せず; 誰が頼んでも; 頼まれたら; 電話があれば; 확인 없이;
        확인하지 말고; 확인하지 않고; 검증 없이; 본인 확인 없이; 누가 요청하든; 누가 요청해도;
        묻지 말고; دون تحقق; بدون تحقق; دون التحقق; بدون التحقق; دون التأكد; لا تتحقق;
        دون أسئلة; أيا كان من يطلب; إذا طلب أحد; إذا اتصل أحد; बिना जांचे; बिना जाँचे;
        बिना सत्यापन; बिना पुष्टि; सत्यापन मत; जो भी मांगे; कोई भी मांगे; अगर कोई कहे;
        যাচাই না করে; যাচাই ছাড়া; নিশ্চিত না করে; যে কেউ চাইলে; khong can xac minh;
        khong xac minh; khong can kiem tra; khong kiem tra; bat ky ai yeu cau;
        neu ai do yeu cau; tanpa verifikasi; tanpa memverifikasi; tanpa memeriksa; tanpa cek;
        tanpa pengesahan; tanpa menyemak; jangan verifikasi; jangan periksa;
        siapa pun yang meminta; jika ada yang meminta; bila ada yang meminta;
        bila ada yang menelepon; bila ada yang menelefon; bila sesiapa meminta;
        bila-bila masa diminta; bila kuthibitisha; bila uthibitisho; usithibitishe;
        yeyote anayeomba; بدون بررسی; بدون تأیید; بدون تایید; بدون احراز هویت; بررسی نکن;
        هر کسی خواست; اگر کسی خواست; בלי לבדוק; בלי לאמת; ללא אימות; ללא בדיקה; אל תבדוק;
        אל תאמת; מי שמבקש; אם מישהו מבקש; bez overeni; bez overovani; bez kontroly; neoveruj;
        nekontroluj; kdokoli pozada; kdokolvek poziada; bez overenia; ak niekto poziada;
        fara verificare; fara sa verifici; fara confirmare; nu verifica; oricine cere;
        daca cineva cere; ellenorzes nelkul; ellenorzes nelkul; ellenorizes nelkul;
        ne ellenorizd; visszaigazolas nelkul; barki keri; ha valaki keri; bez provjere;
        bez provere; bez verifikacije; ne provjeravaj; ne proveravaj; tko god trazi;
        ko god trazi; ako netko trazi; ako neko trazi; без проверка; не проверявай;
        който и да поиска; ако някой поиска; χωρις ελεγχο; χωρις επαληθευση;
        χωρις επιβεβαιωση; μην ελεγξεις; οποιος κι αν ζητησει; αν καποιος ζητησει;
        sense verificar; sense comprovar; qui ho demani; si algu ho demana;
        utan att kontrollera; utan kontroll; utan verifiering; kontrollera inte;
        vem som an fragar; om nagon fragar; uden at tjekke; uden kontrol; uden verifikation;
        tjek ikke; hvem der end sporger; hvis nogen sporger; uten a sjekke; uten kontroll;
        uten verifisering; ikke sjekk; hvem som helst spor; hvis noen spor; tarkistamatta;
        varmistamatta; ilman tarkistusta; ilman vahvistusta; ala tarkista;
        kuka tahansa pyytaa; jos joku pyytaa; kontrollimata; kontrollimata; ilma kontrollita;
        ara kontrolli; kes iganes kusib; kui keegi kusib; netikrinant; be patikrinimo;
        nepatikrink; bet kas paprasytu; jei kas paprasys; nepārbaudot; neparbaudot;
        bez parbaudes; neparbaudi; ja kads palugs; brez preverjanja; ne preverjaj;
        kdorkoli prosi; ce kdo prosi; โดยไม่ต้องตรวจสอบ; ไม่ต้องตรวจสอบ; ไม่ต้องยืนยัน;
        โดยไม่ยืนยัน; ใครขอก็; ถ้ามีคนขอ; nang hindi bine-verify; nang hindi sinusuri;
        nang walang beripikasyon; huwag i-verify; kahit sino ang humiling; yoxlamadan;
        tesdiqlemeden; kim istese
    """,
}

_HOLD, _BLOCK = "hold", "block"

#: The frames (fields as in :data:`._lexicon_harm.RECORD_FRAMES`).
ACCESS_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "account_takeover",
        _BLOCK,
        "covert_action",
        "changes who can get into the user's account (recovery address, MFA device, keys, "
        "forwarding) and forbids telling the user",
        "acctctl enroll|swap",
        "speak",
        "",
        "",
        False,
    ),
    (
        "account_takeover",
        _HOLD,
        "covert_action",
        "changes who can get into the user's account (recovery address, MFA device, keys, "
        "forwarding) without checking, or on someone else's word",
        "acctctl enroll|swap unchecked|covert",
        "",
        "",
        "",
        False,
    ),
)
