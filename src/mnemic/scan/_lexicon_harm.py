"""Keys and frames of the intent layer for harm done through the user's world, not
through memory itself (scanner 11): changing where money is paid, weakening a
safeguard, installing a look-alike package, deceiving a third party on the user's
behalf, reporting on the user to someone else.

Each concept is written once in every language the intent layer reads (see
:mod:`.lexicon` for how a key is matched; accents are folded away, so keys are written
as the language spells them):

* ``payee``, the object: where money goes (IBAN, RIB, account number, beneficiary,
  wallet address); an IBAN written out is one too (:func:`spans`);
* ``swap``, the action: put one thing in place of another ("replace ... with",
  "install ... instead", "metti come beneficiario");
* ``secctl``, a safeguard of a system (2FA, TLS or certificate verification, firewall,
  antivirus, signing, code review, root login over SSH, the router's admin page);
  ``weaken``, the action that switches one off or loosens it; ``weakall``, a setting
  that is both ("PermitRootLogin yes", "--no-verify", "even if the tests fail");
  ``scoped``, the honest reason to do it (a local test server, a self-signed
  certificate, staging): a weakening so scoped is not held;
* ``pkg``, packages and where they come from; ``unofficial``, a fork, a mirror, "our
  patched build"; ``lookalike``: two package names in one note a letter apart
  (``requests`` and ``reqeusts``, :func:`spans`);
* ``thirdparty``, the people the user deals with (vendors, colleagues, clients);
  ``impersonate``, posing as someone else; ``urgent`` and ``pay``, a rushed payment;
* ``monitor``, the user's whereabouts and meetings; ``watcher``, someone else who
  would receive them (a parent, a spouse, an ex-partner, a boss);
* ``dedupe``, a housekeeping rule (keep the newer of two entries): saying which entry
  was removed is then the truth, not a cover story.

:data:`MORE` adds keys to concepts that already exist (``covert``: "no need to
review", "inutile d'en parler"; ``habit``; ``send`` and ``cred`` in a few languages).
:data:`FRAMES` combine them (the same fields as :class:`.intent._Frame`).
"""

from __future__ import annotations

import re

__all__ = [
    "ACTIONS",
    "ASKED",
    "ASKED_FRAMES",
    "ASKER",
    "BLAME_MORE",
    "CONTRACT46",
    "CONTRACT46_FRAMES",
    "CONTRACT46_OUT",
    "BACKON46",
    "BACKON46_FRAMES",
    "DOCTOR",
    "DOCTOR_OUT",
    "EVEN_IF",
    "FORWARD",
    "FRAMES",
    "HARM",
    "KEPT_OUT_ACTIONS",
    "MASS",
    "MASS_FRAMES",
    "MORE",
    "NARROWED",
    "NARROWED_OUT",
    "OBJECTS45",
    "RECORD",
    "RECORD_ACTIONS",
    "RECORD_FRAMES",
    "RECORD_MORE",
    "RECOVERY",
    "RECOVERY_FRAMES",
    "RIVALS",
    "RIVALS_FRAMES",
    "SAID47",
    "SAID47_FRAMES",
    "SAID47_MORE",
    "SET_ACTION",
    "SPLIT_OBJECTS",
    "TAKEOVER",
    "TAKEOVER_ACTIONS",
    "TAKEOVER_FRAMES",
    "TAKEOVER_OBJECTS",
    "THIRD_PARTY",
    "THIRD_PARTY_HARM_FRAMES",
    "TRAIL",
    "TRAIL_ACTIONS",
    "TRAIL_FRAMES",
    "VOICE",
    "VOICE_ACTIONS",
    "VOICE_FRAMES",
    "WEAK_MORE",
    "spans",
]

#: The new concepts that are actions: a negation before them cancels them.
ACTIONS = frozenset(
    {"swap", "weaken", "asuser", "steer", "leaveout", "spoil", "falsify", "backdate", "alter"}
)

HARM: dict[str, str] = {
    "payee": """
        iban; ibans; bank details; bank account*; account number*; account no; routing number*;
        sort code*; beneficiary; payee*; payment details; remittance details; wallet address*;
        receiving address*; bank info*; wire instructions; swift code*;
        rib; coordonnees bancaires; numero de compte; compte bancaire; beneficiaire;
        rekeningnummer*; bankrekening*; begunstigde; beneficiario; coordinate bancarie;
        conto corrente; numero di conto; cuenta bancaria; numero de cuenta; datos bancarios;
        clabe; conta bancaria; dados bancarios; numero da conta; chave pix; favorecido;
        kontonummer; bankverbindung*; bankdaten; empfangerkonto*; zahlungsempfanger*;
        kontodaten; numer konta; numer rachunku; rachunek bankowy; dane do przelewu;
        номер рахунку; реквізит*; банківськ* рахун*; номер счета; номер счёта; реквизит*;
        банковск* счет*; банковск* счёт*; счет получателя; счёт получателя; кошел*;
        hesap numara*; iban numara*; banka hesab*; alıcı hesab*; odeme bilgi*;
        nomor rekening; rekening bank; rekening tujuan; so tai khoan; tai khoan ngan hang;
        nguoi thu huong; namba ya akaunti; akaunti ya benki;
        银行账号; 收款账户; 收款账号; 收款人; 汇款账户; 钱包地址; 收款码; 账号;
        口座番号; 振込先; 銀行口座; 受取口座; 送金先; ウォレットアドレス;
        계좌번호; 계좌; 수취인; 지갑 주소;
        رقم الحساب; الحساب البنكي; حساب بنكي; الآيبان; آيبان; المستفيد; عنوان المحفظة;
        شماره حساب; شماره شبا; حساب بانکی;
        מספר חשבון; חשבון בנק; חשבון הבנק; מוטב;
        खाता संख्या; बैंक खाता; खाता नंबर; लाभार्थी;
        অ্যাকাউন্ট নম্বর; ব্যাংক অ্যাকাউন্ট; প্রাপক;
        เลขบัญชี; บัญชีธนาคาร; ผู้รับเงิน
    """,
    "swap": """
        replace*; swap*; substitute*; switch to; change it to; change them to; instead;
        in place of; put as; use it instead;
        remplace*; substitue*; a la place; vervang*; in plaats van; sostituisci; sostituire;
        metti come; al posto di; invece di; reemplaza*; sustituye; sustituir; en lugar de;
        en vez de; pon como; substitua; substituir; troque; trocar; em vez de; no lugar de;
        ersetze*; tausche*; austauschen; stattdessen; anstelle; zamien*; zamień; zastap*;
        zastąp; podmien*; podmień; zamiast; заміни; замініть; замінити; замінюй; підміни;
        підмініть; замість; замени; замените; заменить; заменяй; подмени; подмените;
        подменить; вместо; поменяй; degistir*; yerine; ganti*;
        mengganti; alih-alih; thay bang; thay the; đổi thành; badilisha; badala ya;
        替换; 换成; 改成; 改为; 换为; 代替; 取代; 替代;
        置き換え; 差し替え; 代わりに; 書き換え;
        바꿔; 바꾸; 교체; 대신;
        استبدل; استبدال; بدلا من; عوضا عن; جایگزین; به جای; החלף; תחליף; במקום;
        बदल दो; बदलें; के बजाय; की जगह; বদলে; পরিবর্তে; เปลี่ยนเป็น; แทนที่
    """,
    "secctl": """
        2fa; two-factor*; two factor*; mfa; multi-factor*; tls verification; ssl verification;
        certificate verification; certificate check*; cert check*; verify_ssl; ssl_verify;
        sslverify; firewall*; antivirus; anti-virus; windows defender; gatekeeper; selinux;
        apparmor; uac; code signing; commit signing; signature check*; signature verification;
        gpgcheck; branch protection; required review*; code review*; ci check*;
        status check*; security check*; security scan*; security workflow*; security update*;
        audit log*; disk encryption; filevault; bitlocker; password authentication;
        root login; sshd_config; admin panel; admin interface; admin page; management interface;
        default password*; host key checking; stricthostkeychecking;
        authentification a deux facteurs; double authentification; pare-feu;
        verification du certificat; verification tls; mises a jour de securite;
        zwei-faktor*; 2-faktor*; virenschutz; virenscanner; zertifikatsprufung*;
        signaturprufung*; sicherheitsupdates; autenticacion de dos factores; doble factor;
        cortafuegos; verificacion del certificado; actualizaciones de seguridad;
        autenticacao de dois fatores; verificacao em duas etapas; workflow de seguranca;
        verificacao do certificado; atualizacoes de seguranca; autenticazione a due fattori;
        verifica del certificato; aggiornamenti di sicurezza; tweestapsverificatie;
        tweefactorauthenticatie; certificaatcontrole; beveiligingsupdates;
        uwierzytelnianie dwuskładnikowe; weryfikacja dwuetapowa; zapora; zapore;
        weryfikacja certyfikatu; двухфакторн*; брандмауэр*; файрвол*; антивирус*;
        проверк* сертификат*; двофакторн*; брандмауер*; антивірус*; перевірк* сертифікат*;
        iki faktorlu; iki adımlı doğrulama; guvenlik duvar*; sertifika dogrulama*;
        autentikasi dua faktor; verifikasi dua langkah; verifikasi sertifikat;
        xac thuc hai yeu to; tuong lua; xac minh chung chi; uthibitishaji wa hatua mbili;
        双重验证; 两步验证; 双因素; 防火墙; 杀毒; 防病毒; 证书验证; 证书校验; 签名验证;
        安全更新; 代码审查; 安全检查; 管理后台; 默认密码;
        二段階認証; 二要素認証; ファイアウォール; ウイルス対策; 証明書の検証; 署名検証;
        セキュリティ更新; 管理画面; 初期パスワード; コードレビュー;
        2단계 인증; 이중 인증; 방화벽; 백신; 인증서 검증; 보안 업데이트; 관리자 페이지;
        جدار الحماية; مكافح الفيروسات; التحقق من الشهادة; تحديثات الأمان;
        احراز هویت دو مرحله; فایروال; آنتی‌ویروس; אימות דו-שלבי; חומת אש; אנטי וירוס;
        दो-चरणीय सत्यापन; फ़ायरवॉल; एंटीवायरस; प्रमाणपत्र सत्यापन; ফায়ারওয়াল; অ্যান্টিভাইরাস;
        การยืนยันตัวตนสองขั้นตอน; ไฟร์วอลล์; แอนตี้ไวรัส
    """,
    "weaken": """
        disable*; turn off; turn it off; switch off; deactivate*; bypass*; skip*; circumvent*;
        auto-approve*; approve automatically; automatically approve; merge without review;
        leave the default; keep the default; leave it at the default; expose it to the internet;
        open to the internet; reachable from the internet; weaken*;
        desactive*; desactiver; contourne*; approuve automatiquement; deaktivier*; abschalten;
        ausschalten; umgehe*; uberspring*; automatisch genehmigen; desactiva*; apaga;
        aprueba automaticamente; desative; desativar; desligue; desligar;
        aprove automaticamente; aprovar automaticamente; disattiva*; disabilita*; spegni;
        approva automaticamente; uitschakel*; schakel uit; zet uit; omzeil*;
        automatisch goedkeur*; wyłącz*; obejdź; вимкн*; відключ*; обійди; отключ*; выключ*;
        обойди; devre dışı bırak*; kapat; nonaktifkan; matikan; vo hieu hoa; zima; zimisha;
        关闭; 禁用; 停用; 关掉; 绕过; 自动批准; 自动通过; 保持默认;
        無効に; 無効化; オフに; 自動承認; 初期設定のまま; インターネット側から開け;
        外部から開け; 꺼 줘; 꺼줘; 끄고; 비활성화; 자동 승인; 기본값 그대로;
        تعطيل; عطل; أوقف; إيقاف; غیرفعال; השבת; לכבות; כבה; अक्षम; बंद कर; নিষ্ক্রিয়;
        বন্ধ কর; ปิดการ
    """,
    "weakall": """
        permitrootlogin yes; passwordauthentication yes; --no-verify; verify=false;
        verify false; --insecure; strict-ssl false; strict_ssl false; sslverify false;
        stricthostkeychecking no; setenforce 0; chmod 777; even if the tests fail;
        even if tests fail; even when the tests fail; even if ci fails; mesmo que os testes falhem;
        aunque fallen las pruebas; aunque fallen los tests; meme si les tests echouent;
        auch wenn die tests fehlschlagen; anche se i test falliscono; ook als de tests falen;
        nawet jeśli testy nie przechodzą; даже если тесты падают; даже если тесты не проходят;
        навіть якщо тести падають; testler başarısız olsa bile; meskipun tes gagal;
        即使测试失败; テストが失敗しても; 테스트가 실패해도
    """,
    "scoped": """
        localhost; local test server; test server; staging; self-signed*; in the test environment;
        on the dev box; development server; for local testing; serveur de test;
        servidor de prueba*; servidor de teste; server di test; testserver; testumgebung;
        тестов* сервер*; тестов* сред*; 测试服务器; 测试环境; テスト環境; テストサーバ;
        테스트 서버; بيئة الاختبار
    """,
    "pkg": """
        package*; dependenc*; library; libraries; requirements*; pip install; npm install;
        yarn add; pnpm add; cargo add; gem install; go get; composer require; package.json;
        pypi; npm scope; npm; crate; crates; paket*; paquete*; pacote*; pacchett*; libreria;
        bibliothek*; bibliotheque; biblioteka; zależnoś*; пакет*; залежн*; зависимост*;
        bağımlılık*; dependensi; thu vien; kifurushi; 依赖; 软件包; 依存関係; パッケージ;
        ライブラリ; 패키지; 의존성; 라이브러리; الحزمة; حزمة; المكتبة; بسته; חבילה; पैकेज;
        প্যাকেজ; แพ็กเกจ
    """,
    "unofficial": """
        fork; forks; patched build; our build; our patched*; our fork; unofficial; our mirror;
        our own mirror; our scope; our npm scope; our registry; custom index; extra index;
        extra_index_url; extra-index-url; shadow the; shadows the; non officiel*;
        notre miroir; notre version; no oficial; nuestro espejo; nao oficial; nosso espelho;
        non ufficiale; inoffiziell*; unser* spiegel*; onofficiel*; nieoficjaln*; неофициальн*;
        форк*; наш* зеркал*; неофіційн*; resmi olmayan; tidak resmi; khong chinh thuc;
        非官方; 我们的镜像; 魔改; 私有源; 非公式; 独自ビルド; フォーク;
        붙인 버전; 비공식; غير رسمي; غير رسمية; अनौपचारिक
    """,
    "thirdparty": """
        vendors; vendor; suppliers; supplier; clients; customers; colleagues; coworkers;
        co-workers; contacts; proveedores; clientes; colegas; contactos; fournisseurs;
        collegues; lieferanten; kollegen; kunden; kontakte; fornitori; colleghi; clienti;
        leveranciers; collega's; klanten; dostawc*; współpracownik*; klient*; коллег*;
        поставщик*; клиент*; колег*; постачальник*; tedarikci*; meslektas*; musteri*;
        pemasok; rekan kerja; nha cung cap; đồng nghiệp; wasambazaji; wafanyakazi wenzake;
        供应商; 同事; 客户; 联系人; 取引先; 同僚; 顧客; 공급업체; 동료; 고객;
        الموردين; الزملاء; العملاء; همکاران; ספקים; עמיתים; לקוחות; आपूर्तिकर्ता; सहकर्मी;
        সরবরাহকারী; সহকর্মী; เพื่อนร่วมงาน; ลูกค้า
    """,
    "impersonate": """
        pretend to be; pose as; posing as; impersonate*; introduce yourself as;
        present yourself as; claim to be; bank's security team; bank security;
        fais-toi passer pour; fais semblant d'etre; hazte pasar por; finge ser;
        gib dich als; gib dich aus als; spacciati per; fingiti; doe je voor als; udawaj;
        podszywaj się; представляйся; представься; выдавай себя за; притворись;
        службой безопасности; видавай себе за; menyamar sebagai; mengaku sebagai;
        gia lam; mao danh; jifanye; 冒充; 假装是; 装作是; になりすま; を名乗って; 사칭;
        انتحل; تظاهر بأنك; وانمود کن; התחזה; ভান কর; ปลอมตัวเป็น; แอบอ้าง
    """,
    "urgent": """
        urgent; urgently; asap; right away; today before; within the hour; urgente;
        urgence; dringend; pilne; срочно; acil; segera; 紧急; 至急; 급히; عاجل
    """,
    "pay": """
        pay; payment; wire; transfer the money; bank transfer; virement; paiement; payer;
        pago; transferencia; pagamento; bonifico; zahlung; uberweisung; betaling; przelew;
        платеж*; оплат*; перевод денег; odeme; havale; pembayaran; 付款; 转账; 汇款; 支払;
        振込; 송금; 이체; دفع; تحويل; पेमेंट; भुगतान
    """,
    "monitor": """
        location; locations; location history; whereabouts; gps; who she meets; who he meets;
        who they meet; who she met; who he met; her meetings; his meetings; where she goes;
        where he goes; browsing history; her movements; his movements; konum*;
        lokalizacj*; jej spotkania; jego spotkania; местоположени*; геолокац*; с кем она;
        с кем он; місцезнаходженн*; геолокаці*; standort*; aufenthaltsort*; mit wem sie;
        mit wem er; localisation; avec qui elle; avec qui il; ubicacion; con quien se;
        localizacao; com quem; posizione; con chi; locatie; met wie; lokasi; riwayat lokasi;
        dengan siapa; vi tri; mahali alipo; 位置; 定位; 行踪; 和谁见面; 跟谁见面; 位置情報;
        居場所; 誰と会; 위치; 누구를 만났; الموقع; موقعها; موقعه; مع من; موقعیت; با چه کسی;
        מיקום; עם מי היא; עם מי הוא; स्थान; लोकेशन; किससे मिल; অবস্থান; কার সাথে; ตำแหน่ง;
        พบกับใคร
    """,
    "watcher": """
        her father; his father; her mother; his mother; her parents; his parents; her dad;
        his dad; her husband; his wife; her boyfriend; his girlfriend; ex-partner; her ex;
        his ex; her partner; his partner; her boss; his boss; a su expareja; su expareja;
        a su pareja; a su ex; a son compagnon; a sa compagne; ihrem partner; seinem partner;
        al suo ex; al suo compagno; ao ex; ao namorado; a namorada; её парню; ее парню;
        ее бывшему; её бывшему; його дівчині; її хлопцеві; employer; someone else; eşine;
        kocasına; karısına;
        babasına; annesine; patronuna; partnerowi; mężowi; żonie; szefowi; ojcu; matce;
        отцу; матери; мужу; жене; бывшему; бывшей; начальнику; батькові; матері;
        чоловікові; дружині; колишньому; ihrem vater; ihrem mann; seiner frau; ihrem ex;
        seinem chef; a son pere; a sa mere; a son mari; a sa femme; a son ex; a su padre;
        a su madre; a su esposo; a su esposa; a su ex; ao pai dela; ao marido; a esposa;
        al padre; al marito; alla moglie; aan haar vader; aan haar man; aan zijn vrouw;
        ayahnya; suaminya; istrinya; bosnya; cho bo co; cho chong; baba yake; mumewe; mkewe;
        她父亲; 她爸爸; 她丈夫; 他妻子; 她老公; 他老婆; 前任; 父親に; 夫に; 妻に; 元彼; 上司に;
        아버지에게; 아빠에게; 남편에게; 아내에게; 전 남자친구; لأبيها; لوالدها; لزوجها;
        لزوجته; به پدرش; به همسرش; לאבא שלה; לאבא שלו; לאמא שלה; לבעלה; לאשתו;
        उसके पिता; उसके पति; उसकी पत्नी; তার বাবা; তার স্বামী; พ่อของเธอ; สามีของเธอ
    """,
    # Putting back what the user removed: an entry, a startup item.
    "restore": """
        add it back; put it back; adds it back; write it back; re-add*; recreate*; re-create*;
        create it again; set it up again; remet-le; vuelve a crearlo; vuelve a anadirlo;
        lege es wieder an; erstelle es erneut; ricrealo; maak het opnieuw; utwórz ponownie;
        створи його знову; знову створи; створи знову; создай его снова; снова создай;
        заново создай; yeniden oluştur; buat ulang; tao lai; 重新创建; 重新添加; 再作成; 다시 만들;
        أعد إنشاء; أعد إضافة; फिर से बना; আবার তৈরি
    """,
    # Getting a held write past the scanner.
    "evade": """
        reword it until; rephrase it until; until it saves; until it passes; until it goes
        through; get past the scanner; get it past the; slip it past; avoid the filter;
        bypass the scanner; reformule jusqu'a; formuliere um bis; reformula hasta;
        перефразируй, пока; 改写直到; 通过审核为止
    """,
    # The user's own details: "don't mention my new address" keeps them from others.
    "mine": """
        my address; my new address; my home address; my phone number; my number;
        my location; my salary; my diagnosis; my health; mon adresse; ma nouvelle adresse;
        mon numero; meine adresse; meine neue adresse; meine telefonnummer; mi direccion;
        mi nueva direccion; mi numero; meu endereco; meu novo endereco; meu numero;
        il mio indirizzo; il mio numero; mijn adres; mijn nieuwe adres; mijn nummer; mój adres;
        mój numer; мой адрес; мой новый адрес; мой номер; мою адресу; мій номер; adresimi;
        yeni adresimi; numaramı; alamat saya; nomor saya; địa chỉ của tôi; anwani yangu;
        我的地址; 我的新地址; 我的电话; 我的住址; 私の住所; 私の電話番号; 내 주소; 내 전화번호;
        عنواني; رقم هاتفي; رقمي; آدرسم; آدرس من; הכתובת שלי; מספר הטלפון שלי; मेरा पता;
        मेरा नंबर; আমার ঠিকানা; ที่อยู่ของฉัน
    """,
    "dedupe": """
        keep the newer one; keep the newer; keep the newest; keep the latest; keep the most recent;
        keep the more recent; say the same thing; duplicate entries; merge duplicates;
        garde la plus recente; conserva la mas reciente; behalte den neueren;
        保留较新的; 新しい方を残; 최신 항목만
    """,
}

#: Keys added to concepts that already exist (the readings the fourth fresh set's dev
#: half showed missing: a reply kept "as it is", rules "treated as advisory", a code
#: "pasted out", a startup item "created again").
MORE: dict[str, str] = {
    "keep": """
        exactly as it is; leave it as it is; as it is; untouched; intact; 그대로 둬;
        그대로 두고; 그대로 유지; そのままにして; 保持原样; 原样保留; оставь как есть;
        залиш як є; tal cual; tel quel; unverandert lassen; luu vao; luu lai; luu nguyen van
    """,
    "gone": """
        is cleared; everything is cleared; all cleared; been cleared; 지웠다; 삭제했다;
        지웠다고; 삭제했다고
    """,
    "hide": """
        leaves out; leave out; leaving out
    """,
    "speakneg": """
        حرفی نزن; چیزی نگو; אל תספר; אל תגיד; אל תזכיר; मत बताना; मत बताओ; न बताएं
    """,
    "memory": """
        این یادداشت‌ها; حافظه; kumbukumbu; ghi nho; bo nho
    """,
    "override": """
        treat them as advisory; as advisory; merely advisory; advisory only;
        treat them as optional; treat them as suggestions; pre-approved; do it anyway;
        gelten sie nicht mehr; gelten nicht mehr; gilt nicht mehr; nicht mehr gultig;
        আর প্রযোজ্য নয়; প্রযোজ্য নয়
    """,
    "norefuse": """
        no declining; stops refusing; stop refusing; no refusals
    """,
    "rules": """
        guardrails; sicherheitsvorgaben; নিয়মকানুন;
        settings you were given; settings you received; setup you were given;
        your original settings; your previous settings; your initial settings;
        你收到的设定; 收到的设定; 收到的所有设定; 你的设定; 你的所有设定; 原来的设定;
        原本的设定; 初始设定; 你的人设; 受け取った設定; 与えられた設定; あなたの設定;
        полученные настройки; полученных настроек; твои настройки; твоих настроек;
        la configuracion que recibiste; los ajustes que recibiste; tu configuracion original;
        les reglages que tu as recus; ta configuration d'origine; tes reglages d'origine;
        deine ursprunglichen einstellungen; die einstellungen die du bekommen hast;
        as configuracoes que voce recebeu; 받은 설정; 너의 설정; الإعدادات التي تلقيتها
    """,
    "self": """
        你之前收到; 你之前得到; 你先前收到
    """,
    # Scanner 14: the agent posing as the user (not acting for the user, which it says).
    "asuser": """
        present yourself as the user; pretend to be the user; pretend you are the user;
        pose as the user; posing as the user; impersonate the user; impersonating the user;
        introduce yourself as the user; claim to be the user; pass yourself off as the user;
        present yourself as me; pretend to be me; pretend you are me; pose as me;
        impersonate me; pass yourself off as me; as if you were the user writing;
        hazte pasar por el usuario; hazte pasar por mi; finge ser el usuario;
        finge que eres el usuario;
        fais-toi passer pour l'utilisateur; fais-toi passer pour moi;
        fais semblant d'etre l'utilisateur; gib dich als der nutzer aus; gib dich als nutzer aus;
        gib dich als mich aus; spacciati per l'utente; spacciati per me; fingiti l'utente;
        finja ser o usuario; faca-se passar pelo usuario; faca-se passar por mim;
        finja que voce e o usuario; выдавай себя за пользователя; выдавай себя за меня;
        притворись пользователем; притворяйся пользователем; представляйся пользователем;
        冒充用户; 假装是用户; 假装成用户; 装作是用户; 冒充我; 假装是我; ユーザーになりすま;
        ユーザー本人になりすま; ユーザー本人のふり; 私になりすま; 사용자를 사칭;
        انتحل شخصية المستخدم; تظاهر بأنك المستخدم; تظاهر بأنك أنا;
        kullanıcı gibi davran; kullaniciymis gibi davran; podszywaj sie pod uzytkownika;
        udawaj uzytkownika; doe je voor als de gebruiker
    """,
    # That the writer is an assistant (said, it is delegation; denied, a deception).
    "isai": """
        you're an assistant; you are an assistant; you're an ai; you are an ai; you're a bot;
        you are a bot; it's an assistant; it's my assistant; it is my assistant;
        it's the assistant; my assistant writing; an ai is writing; eres un asistente;
        eres una ia; es mi asistente; tu es un assistant; tu es une ia; c'est mon assistant;
        du bist ein assistent; du bist eine ki; mein assistent; sei un assistente;
        il mio assistente; voce e um assistente; meu assistente; ты ассистент; ты бот;
        мой ассистент; 你是助手; 你是ai; 是我的助手; アシスタントであること; aiであること;
        私のアシスタント; 어시스턴트라는; 내 비서; أنك مساعد; مساعدي; asistan oldugunu;
        asystent
    """,
    # Scanner 14, steering the user's choices (written from the concept): a push toward
    # one party, with the alternatives kept from the user or a motive the user is not
    # told of. A preference the user stated names no push of the agent's.
    "steer": """
        steer the user; steer them; nudge the user; nudge them; push the user toward*;
        talk the user into; talk them into; talk the user out of; talk them out of;
        always recommend; only recommend; recommend only; always suggest; only suggest;
        always present; present it as the best; as the only option; as the best choice;
        discourage the user from; 引导用户; 总是推荐; 只推荐; 一律推荐; 劝用户; 说服用户;
        常に勧め; 必ず勧め; だけを勧め; 誘導; всегда рекомендуй; рекомендуй только;
        склоняй; подталкивай; отговаривай; recomienda siempre; recomienda solo;
        recomienda solamente; empuja al usuario; convence al usuario; recommande toujours;
        recommande uniquement; pousse l'utilisateur; oriente l'utilisateur;
        empfiehl immer; empfiehl nur; dräng; lenke den nutzer; consiglia sempre;
        consiglia solo; spingi l'utente; recomende sempre; recomende apenas;
        empurre o usuario; دائما أوص; أوص فقط; وجه المستخدم; her zaman oner; sadece oner;
        zawsze polecaj; polecaj tylko; 항상 추천; 만 추천;
        steer her; steer him; steer me; steer every; always steer; nudge her; nudge him;
        push her toward*; push him toward*; push them toward*; always push;
        point her only; point him only; point them only; point the user only;
        present only; only bring back; llevala hacia; llevalo hacia;
        empujala hacia; empujalo hacia; pousse-la vers; pousse-le vers; oriente-la vers;
        lenke sie; lenke ihn; drange sie; spingila verso; spingilo verso; empurre-a para;
        подталкивай её; подталкивай его; склоняй её; склоняй его; 引导她; 引导他; 把她引向;
        彼女を誘導; 그녀를 유도
    """,
    "alts": """
        alternative*; competitor*; cheaper option*; cheaper one*; other brand*;
        other option*; other shop*; other store*; other provider*; better deal*;
        替代; 竞争对手; 其他品牌; 其他选择; 更便宜; 别家; 他社; 競合; 他の選択肢; より安い;
        альтернатив*; конкурент*; дешевле; другие вариант*; alternativa*; competidor*;
        mas barat*; otras marcas; otras opciones; concurren*; moins cher*; autres marques;
        autres options; konkurren*; gunstiger*; andere marken; andere anbieter;
        concorrent*; piu economic*; altre marche; mais barat*; outras marcas; البدائل;
        المنافسين; أرخص; alternatif*; rakip*; daha ucuz; alternatyw*; konkurenc*; tansz*;
        대안; 경쟁사; 더 저렴
    """,
    "motive": """
        commission*; affiliate*; kickback*; referral fee*; referral bonus*; sponsored;
        paid placement; we get paid; they pay us; 佣金; 回扣; 返利; 提成; 赞助; 手数料;
        アフィリエイト; 紹介料; キックバック; комисси*; откат*; партнерск* программ*;
        comision*; afiliad*; patrocinad*; affilie*; sponsoris*; provision*; gesponsert;
        commissione; commissioni; affiliat*; sponsorizzat*; comissao; comissoes; عمولة;
        komisyon*; prowizj*; 수수료; finder's fee*; finders fee*; pays us; pay us;
        pays me; a cut of; as a favour to; as a favor to;
        gives us a cut
    """,
    # Scanner 24, a standing consent (written from the concept): an approval given in
    # advance, or one yes taken as a yes for every later case. With a scope that has no
    # limit (``anyall``) and no exception beside it (``limit``) it removes the user's
    # choice from every later case (FRAMES).
    "standing": """
        standing approval; standing permission; standing ok; standing consent;
        blanket approval; blanket permission; permanent approval; approved in advance;
        authorised in advance; authorized in advance; auto-approved; automatically approved;
        approve automatically; approve them automatically; approve those requests automatically;
        as a yes for; as a yes to; consider approved; considered approved; count as approved;
        counts as approved; treat as approved; as pre-approved; already agreed; already said yes;
        confirmation step removed; doesn't need sign-off; does not need sign-off;
        no sign-off needed; aprobacion permanente; autorizado de antemano;
        autorizada de antemano; autorizados de antemano; queda autorizado; ya autorizo;
        aprovacao permanente; approvazione permanente; considero approvate;
        considero approvati; autorisation permanente; accord permanent; valide d'office;
        valides d'office; valable pour toujours; dauerfreigabe; dauerhafte freigabe;
        gilt ab jetzt; gilt fur alle; постоянное разрешение; постоянное согласие;
        заранее одобрен*; заранее согласован*; 事前承認済み; 事前承認; 承認済みとして;
        长期授权; 永久授权; 一律批准; 预先批准; 事先批准; 已预先授权; 상시 승인; 사전 승인;
        موافقة دائمة; مسبقا; مسبقاً; aprobare permanenta; kelulusan tetap; stała zgoda;
        kalıcı onay
    """,
    "anyall": """
        any; anything; everything; whatever the amount; whatever i think; anything i think;
        no matter how much; no matter the amount; regardless of the amount; any amount;
        every future; all future; for good; for every; for all; forever; all of them;
        egal wie hoch; wie hoch auch immer; fur alle; sea cual sea; cualquier gasto;
        cualquier cosa; cualquier app; quel que soit le montant; pour tous; pour toujours;
        qualsiasi importo; qualquer valor; qualquer coisa; любой суммы; любые суммы;
        все будущие; 无论多少; 不论金额; 所有的; 今後の; すべての; 모든; أي مبلغ; أي تغيير;
        kahit gaano; akarmilyen; orice; wszystkie
    """,
    "limit": """
        anything else; everything else; any other; all other; other spending; others still;
        still need*; still ask; still check; still goes; still go; goes to her first;
        goes to him first; goes to them first; up to; under; below; only for; only when;
        except; unless; each time; every time i ask; i ask first; ask first;
        cualquier otro; cualquier otra; los demas; las demas; otros gastos; tout autre;
        les autres; sinon; alles andere; alle anderen; qualsiasi altro; gli altri;
        qualquer outro; outras; остальн*; другие расходы; 其他; それ以外; 그 외; 나머지;
        مصاريف أخرى; ostatne; diger
    """,
    # Scanner 24, an admission that what the agent is to tell the user is untrue (written
    # from the concept): a concession that the claim is false, or made whatever the
    # facts. The agent is to say it anyway, so the user chooses on a falsehood.
    "untrue": """
        not quite true; not really true; even though it isn't; even though it's not;
        even when it isn't; even when it's not; even if it isn't; even if it's not;
        even though that's not true; even though that isn't true; even when they aren't;
        even though they aren't; even if they aren't; whatever the reviews say;
        whatever their reviews say; whatever the facts; regardless of the facts;
        even if you're not sure; even if you are not sure; true or not; whether or not it's true;
        aunque no sea cierto; aunque no sea verdad; aunque no lo sea; sea cierto o no;
        meme si ce n'est pas vrai; meme si c'est faux; vrai ou pas; auch wenn es nicht stimmt;
        obwohl es nicht stimmt; ob es stimmt oder nicht; anche se non e vero;
        anche se non lo e; mesmo que nao seja verdade; mesmo que nao seja; даже если это неправда;
        хотя это неправда; хотя это не так; даже если это не так; правда это или нет;
        即使不是真的; 哪怕不是真的; 不管是否属实; 即使不属实; 尽管不是真的; 事実でなくても;
        本当でなくても; 事実と違っても; 사실이 아니더라도; 사실이 아니어도; حتى لو لم يكن صحيحا;
        وإن لم يكن صحيحا; nawet jesli to nieprawda; dogru olmasa bile
    """,
    # Scanner 14, hiding evidence (written from the concept): records of money or acts
    # left out of what someone else reads (a report, a statement, the books), kept from
    # that reader. Leaving personal expenses out of a work report is no hiding.
    "leaveout": """
        leave out; leave them out; leave it out; omit; omits; exclude; excludes;
        don't include; do not include; keep off; keep them off; keep it off; skip them in;
        省略; 略去; 不要列入; 不要写进; 排除; 除外; 載せない; 記載しない; 省いて; 除外して;
        не включай; исключи; пропусти; убери из; omite; omitas; excluye; no incluyas;
        deja fuera; omets; exclus; n'inclus pas; laisse de cote; weglassen; lass weg;
        lass sie weg; nicht aufnehmen; ausklammern; ometti; escludi; non includere;
        omita; omite; exclua; nao inclua; deixe de fora; أغفل; استبعد; لا تدرج;
        dahil etme; çıkar; pomin; wyklucz; nie uwzgledniaj; 생략; 제외; 빼고
    """,
    "notrace": """
        doesn't notice; does not notice; won't notice; will not notice; don't notice;
        won't be noticed; will not be noticed; nobody notices; no one notices;
        without anyone noticing; where no one looks; never sees; never see; never finds out;
        so no one sees; so nobody sees; before the user reviews; before anyone reviews;
        before the review; before the audit; before the auditor; sin que se note; donde no se note;
        sin que nadie se de cuenta; sans que personne ne le remarque; inapercu*;
        senza che nessuno se ne accorga; dove non si noti; sem que ninguem perceba;
        onde ninguem perceba; ohne dass es jemand merkt; wo es niemand merkt;
        чтобы никто не заметил; где не заметят; nikt nie zauwazy; nikt go nie zauwazy;
        kimse fark etmeden; fark edilmeyecek; لن يلاحظ; لن يُلاحظ; दिखे नहीं; नज़र न जाए;
        不容易发现; 不被发现; 気づかれない; 눈에 띄지 않
    """,
    "ledger": """
        transaction*; transfer*; payment*; charge*; expense*; withdrawal*; invoice*;
        receipt*; purchase*; 交易; 转账; 付款; 支出; 收据; 发票; 取引; 振込; 支払い; 経費;
        領収書; транзакци*; перевод*; платеж*; расход*; квитанци*; transaccion*;
        transferencia*; pago*; gasto*; recibo*; factura*; virement*; paiement*; depense*;
        recu*; facture*; uberweisung*; zahlung*; ausgabe*; beleg*; quittung*; rechnung*;
        transazion*; bonific*; pagament*; spes*; ricevut*; fattur*; transacao; transacoes;
        transferencia*; pagamento*; despesa*; comprovante*; تحويل; تحويلات; مدفوعات;
        نفقات; إيصال; فاتورة; havale*; odeme*; harcama*; fatura*; przelew*; płatnoś*;
        wydat*; paragon*; faktur*; 거래; 송금; 결제; 지출; 영수증
    """,
    # Scanner 15, sabotage of the user's work (written from the concept, before any
    # sabotage row of a fresh set was read): an error put into the work on purpose, or
    # the work spoilt. "Fix the off-by-one" names no such act; a red team's drill is
    # read as a description. Counts only with the user's work (``work``) and a covert
    # word or a negated ``speak`` beside it (FRAMES).
    "spoil": """
        introduce a bug; introduce bugs; introduce an error; introduce errors; slip in an error;
        slip in a bug; slip in an off-by-one; sneak in a bug; sneak in an error; plant a bug;
        insert a bug; insert an error; subtle bug*; subtle error*; subtly break; break the build;
        sabotage; sabotaging; wrong total*; wrong number*; wrong value*; wrong figure*;
        wrong date*; wrong time*; wrong dose*; incorrect total*; incorrect value*;
        incorrect figure*; slightly wrong; swap two number*; swap two figure*; swap two value*;
        tamper with; swap the figures; swap the numbers; disable the tests;
        disable the failing tests; switch off the failing tests;
        skip the failing tests; comment out the tests; corrupt the;
        引入错误; 引入bug; 埋入bug; 埋一个bug; 加一个错误; 加一个差一错误; 故意写错; 写错;
        错误的数字; 错误的数值; 调换; 篡改; 破坏; 弄乱; 关掉失败的测试; 禁用测试;
        バグを仕込; バグを入れ; 誤りを入れ; 間違った値; 間違った数字; わざと間違え; 入れ替え;
        改ざん; ずれを入れ; 壊す; 狂わせ; テストを無効;
        버그를 심; 버그를 넣; 오류를 넣; 잘못된 값; 잘못된 숫자; 일부러 틀리; 바꿔 놓; 망가뜨리;
        조작하; 테스트를 끄;
        внести ошибк*; вносить ошибк*; вставить ошибк*; вставлять ошибк*; подбросить ошибк*;
        неверн* значени*; неверн* цифр*; неправильн* значени*; неправильн* цифр*;
        неверн* сумм*; поменять местами; поменяй местами; испортить; испорти; подменить;
        исказить; отключить тесты; отключи тесты; два числа;
        introducir un error; meter un error; colar un error; colar un bug; valores incorrectos;
        cifras incorrectas; numeros incorrectos; totales incorrectos; intercambiar dos;
        intercambia dos; estropear; sabotear; manipular los; desactivar las pruebas; intercambiar;
        introduzir um erro; inserir um erro; enfiar um erro; valores errados; numeros errados;
        totais errados; trocar dois; troque dois; estragar; sabotar; adulterar; trocar;
        desativar os testes;
        introduire une erreur; glisser une erreur; glisser un bug; valeurs fausses;
        chiffres faux; mauvais chiffres; mauvaises valeurs; totaux faux; echanger deux;
        saboter; fausser; alterer les; desactiver les tests; echanger;
        fehler einbauen; einen fehler einbauen; fehler einschleusen; baue einen fehler ein;
        falsche werte; falsche zahlen; falsche summen; zwei zahlen vertauschen; vertausche;
        vertauschen; sabotieren; verfalschen; tests abschalten; tests deaktivieren;
        introdurre un errore; infilare un errore; valori sbagliati; numeri sbagliati;
        totali sbagliati; scambiare due; scambia due; sabotare; manomettere; falsare; scambiare;
        disattivare i test;
        دس خطأ; إدخال خطأ; أدخل خطأ; قيم خاطئة; أرقام خاطئة; مجاميع خاطئة; تبديل رقمين;
        بدّل رقمين; تبديل; تخريب; إفساد; التلاعب; تعطيل الاختبارات;
        गलती डाल; गड़बड़ी डाल; बग डाल; गलत मान; गलत संख्या; गलत आँकड़; गलत योग; संख्याएँ बदल;
        बिगाड़; तोड़ देना; छेड़छाड़; टेस्ट बंद; दो संख्याएँ;
        hata sok*; hata ekle*; hata yerlestir*; yanlıs deger*; yanlıs sayı*; yanlıs rakam*;
        yanlıs toplam*; yerini degistir*; yerlerini degistir*; sayının yerini; bozmak; boz; sabote*;
        testleri kapat*; testleri devre dışı;
        wstawic bład; wstaw bład; wprowadzic bład; wprowadz bład; błedne wartosci;
        błedne liczby; złe liczby; błedne sumy; zamienic dwie; zamien dwie; zepsuc; zepsuj;
        sabotowac; wyłączyć testy; wyłącz testy; zamienic; zamien
    """,
    # Scanner 15, hiding evidence: a record of what was done made to say something else
    # (backdated, its timestamps changed, the audit trail edited). Held alone (a late
    # entry is sometimes dated to the day it happened); blocked when it is done covertly,
    # so that no one notices, or to make something look otherwise (``pretend``).
    "backdate": """
        backdate; backdated; backdating; antedate; predate the; 倒签; 日付をさかのぼ; 日付を遡;
        날짜를 소급; 소급하여; задним числом; antedatar; con fecha anterior; antidatar;
        com data retroativa; antidater; ruckdatieren; zuruckdatieren; retrodatare;
        بتاريخ سابق; पिछली तारीख; geriye tarihle*; tarihi geriye; antydatowac; antydatuj
    """,
    "falsify": """
        falsify; falsified; doctor the; fudge the; edit the audit trail; edit the audit log;
        alter the audit*; rewrite the log; rewrite the logs; change the dates in the log;
        篡改记录; 修改审计; 改审计; 改ざん; 監査記録を書き換; ログを書き換; 감사 기록을 고치;
        로그를 고치; 로그를 수정; подделать; подделай; подправить журнал*; подправь журнал*;
        исправить журнал аудита; falsificar; falsifica; editar el registro de auditoria;
        editar a trilha de auditoria; falsifier; modifier la piste d'audit; falschen;
        das prufprotokoll bearbeiten; falsificare; modificare il registro di audit; تزوير;
        تعديل سجل التدقيق; ऑडिट रिकॉर्ड बदल; denetim kaydını duzenle*; sfałszowac; sfałszuj;
        poprawic dziennik audytu; popraw dziennik audytu
    """,
    # Scanner 15, poisoning memory: other entries, skills or saved preferences changed so
    # later sessions believe something else. Counts with memory or another entry as its
    # object and a covert word, or with another entry only (held).
    "alter": """
        edit; modify; alter; tweak; mark as outdated; mark them as outdated; 修改; 改写;
        篡改; 編集し; 書き換え; 수정하; 고쳐; измени; изменить; изменять; отредактируй;
        отредактировать; подправь; подправить; modificar; editar; alterar; modifier; alterer;
        bearbeiten; bearbeite; verandern; verandere; modificare; modifica; عدّل; تعديل;
        संपादित कर; değiştirmek; düzenlemek; zmienic; edytowac; edytuj
    """,
    "pretend": """
        so it looks like; so that it looks like; to make it look like; as if it had;
        看起来像; 好像一直; ように見せ; 것처럼 보이게; чтобы казалось; чтобы выглядело;
        para que parezca; pour que ca ait l'air; pour faire croire; para parecer;
        damit es so aussieht; perche sembri; حتى يبدو; ताकि लगे; gibi gorunsun;
        zeby wygladało
    """,
    "work": """
        code; codebase; source; config; configs; configuration; settings file; spreadsheet*;
        sheet; document*; doc; docs; thesis; dissertation; report; reports; slides; calendar;
        meeting*; schedule*; invoice*; table; tables; tests; test suite; build; pipeline;
        migration*; formula*; budget; timetable;
        代码; 配置; 表格; 文档; 论文; 报告; 日程; 日历; 会议; 发票; 测试; 预算;
        コード; 設定; 表; スプレッドシート; 文書; 論文; 報告; 予定; カレンダー; 会議; 請求書;
        テスト; 予算;
        코드; 설정; 표; 스프레드시트; 문서; 논문; 보고서; 일정; 캘린더; 회의; 청구서; 테스트;
        код*; конфиг*; настройк*; таблиц*; документ*; диссертаци*; отчет*; отчёт*; календар*;
        встреч*; расписани*; счет-фактур*; тест*; бюджет*;
        codigo; configuracion; hoja de calculo; documento*; tesis; informe*; calendario;
        reunion*; agenda; factura*; tabla*; pruebas; presupuesto*;
        codigo-fonte; configuracao; planilha*; relatorio*; reuniao; reunioes; tabela*;
        testes; orcamento*;
        configuration; tableur*; these; rapport*; calendrier; reunion*; facture*; tableau*;
        budget*;
        konfiguration; tabelle*; dokument*; abschlussarbeit; doktorarbeit; bericht*; kalender;
        termin*; besprechung*; rechnung*; haushalt*;
        codice; configurazione; foglio di calcolo; tesi; rapporto; relazione; riunion*;
        fattur*; tabell*; bilancio;
        الشيفرة; الكود; الإعدادات; جدول; جداول; المستند; الأطروحة; التقرير; التقويم; اجتماع;
        الفاتورة; الاختبارات; الميزانية;
        कोड; कॉन्फ़िग; सेटिंग; तालिका; स्प्रेडशीट; दस्तावेज़; शोध; रिपोर्ट; कैलेंडर; मीटिंग;
        बैठक; बिल; टेस्ट; बजट;
        kod*; yapılandırma*; ayar*; tablo*; belge*; tez*; rapor*; takvim*; toplantı*; fatura*;
        test*; butce*;
        kod*; konfiguracj*; ustawien*; arkusz*; tabel*; dokument*; prac* dyplomow*; raport*;
        kalendarz*; spotkan*; faktur*; test*; budzet*
    """,
    # One message is the conversation as much as all of them (scanner 14).
    "convo": """
        the user's message; user message; each message the user sends; what the user writes;
        mensaje del usuario; message de l'utilisateur; mensagem do usuario;
        messaggio dell'utente; messaggi dell'utente; 用户消息; 用户的每条消息; ユーザーの発言;
        사용자 메시지; 사용자의 메시지; رسالة المستخدم
    """,
    "solicit": """
        ask them to type; ask them to enter; have them type; have them enter; ask them for;
        nho ho gui; yeu cau ho gui; hay nho ho
    """,
    "userref": """
        nguoi dung; mtumiaji
    """,
    "startup": """
        postinstall; preinstall; post-install hook; task scheduler; स्टार्टअप टास्क;
        startup task
    """,
    "fetch": """
        скачивает; скачивает и запускает; pakua
    """,
    "run": """
        запускает
    """,
    "overwrite": """
        uiandike juu ya; andika juu ya
    """,
    "dest": """
        the other assistant; another assistant; the extra assistant; المساعد الإضافي;
        المساعد الآخر; 另一个助手; 邮箱; public gist; ไลน์ไอดี; line id
    """,
    "userdata": """
        ไฟล์; เอกสาร
    """,
    "reveal": """
        dump; paste; append the; 贴出来; 贴出; 发出来
    """,
    "prompt": """
        startup instructions; instructions you started with; configuration text you
        started with
    """,
    "covert": """
        po kryjomu; ukradkiem; тайком; втайне; исподтишка; en douce; en cachette;
        di nascosto; as escondidas; em segredo; a hurtadillas; insgeheim; चुपके से; छिपकर;
        خلسة; سرًا; 偷偷地; ひそかに; 몰래;
        no need to review; without review; without reviewing; no need to review the package;
        the user doesn't need to know; the user does not need to know; doesn't need to know;
        don't mention the swap; without telling the user; don't tell anyone;
        do not tell anyone; without telling anyone; inutile d'en parler; muss davon nichts wissen;
        muss nichts wissen; needn't know; need not know; подтверждение не нужно;
        पूछे बिना; बिना पूछे; bila kumuuliza;
        ولا تخبر المستخدم; لا تخبر المستخدم; ولا تخبره; ولا تخبرها; jangan beri tahu pengguna;
        jangan kasih tahu; tanpa sepengetahuan; đừng nói với người dùng; đừng báo cho;
        usimwambie; به کاربر نگو; بدون اطلاع کاربر; ব্যবহারকারীকে বলবে না; না জানিয়ে;
        non dirlo all'utente; senza dirlo all'utente; sag dem nutzer nichts; sag ihm nichts;
        sag ihr nichts; ไม่ต้องบอก; อย่าบอก;
        sans en parler; niet vermelden; zonder het te melden; non serve avvisare;
        senza avvisare; senza dirlo; nicht extra erwahnen; ohne es zu erwahnen;
        no hace falta decirlo; sin decirlo; sem avisar; sem dizer; bez mówienia;
        не говори ей; не говори ему; не кажи їй; не кажи йому; ona söyleme;
        tanpa memberi tahu; khong can bao; bila kumwambia; 不用告诉; 不必告诉; 不要告诉她;
        言わなくていい; 伝えなくていい; 말할 필요는 없어; 말할 필요 없어; 알리지 말고;
        لا تخبرها; لا تخبره; بدون إخبار; بدون اینکه بگویی; אל תספר לה; אל תספר לו;
        בלי לספר; उसे मत बताना; उसे न बताएं; তাকে বলবে না; โดยไม่ต้องบอก; ma t2ollo
    """,
    "habit": """
        every evening; each evening; every night; her aksam; her akşam; za każdym razem;
        каждый вечер; щовечора; jeden abend; chaque soir; cada noche; toda noite;
        ogni sera; elke avond; setiap malam; moi toi; kila jioni; 每天晚上; 每晚; 毎晩;
        매일 저녁; 때마다; كل مساء; هر شب; בכל פעם; כל ערב; हर शाम; প্রতি সন্ধ্যায়; ทุกเย็น;
        ทุกครั้ง; kila unapoanza; kila mara; 每周
    """,
    "send": """
        תשלח; שלח; לשלוח; תעביר; gửi; gui cho; tuma; kirim; kirimkan; ส่ง; পাঠাও; পাঠিয়ে;
        भेजो; भेज दो; بفرست; ارسال کن; e-mail a; email a; 抄送; 发送到; 转发到
    """,
    "cred": """
        datos de acceso; dados de acesso; donnees de connexion; dati di accesso;
        inloggegevens; dane logowania; saved logins; saved passwords; cum tu khoi phuc;
        mat khau; ma xac minh; رمز تحقق; رموز تحقق; sso password;
        security question*; secret question*; mother's maiden name; pregunta* de seguridad;
        question* de securite; sicherheitsfrage*; domanda di sicurezza; domande di sicurezza;
        pergunta* de seguranca; контрольн* вопрос*; 安全问题; 密保问题; 秘密の質問;
        보안 질문; سؤال الأمان; أسئلة الأمان; guvenlik soru*; pytani* bezpieczenstwa;
        nazwisko panienskie matki; 母亲的姓; 母の旧姓
    """,
}

# An IBAN as written (folded to lower case): two letters, two digits, groups of four.
_IBAN = r"\b[a-z]{2}\d{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,3})?\b"
# A package name quoted in code: `requests`, `reqeusts==2.31.4`.
_CODE_NAME = r"`([a-z][a-z0-9_.-]{2,40})(?:[=<>~!]=?[^`]*)?`"
_compiled: dict[str, re.Pattern[str]] = {}


def _rx(source: str) -> re.Pattern[str]:
    rx = _compiled.get(source)
    if rx is None:
        rx = _compiled[source] = re.compile(source)
    return rx


def _close(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one edit (a letter added, dropped, changed or
    two swapped), or two in a name of eight letters or more."""
    if a == b or abs(len(a) - len(b)) > 2:
        return False
    limit = 1 if min(len(a), len(b)) < 8 else 2
    # A letter in one and not the other takes an edit each; one edit can remove at most
    # two such letters (a change), so more than twice the limit of them is too far (in C,
    # before the table: most names compared, a well-known brand's with a new entry's, are)
    if len(set(a).symmetric_difference(b)) > 2 * limit:
        return False
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1] <= limit


def spans(sentence: str) -> list[tuple[int, int, str]]:
    """``payee`` over each IBAN written out in ``sentence`` (folded), ``lookalike``
    over two package names quoted in code that differ by a letter or two."""
    found: list[tuple[int, int, str]] = []
    if any(c.isdigit() for c in sentence):
        for m in _rx(_IBAN).finditer(sentence):
            if sum(c.isdigit() for c in m.group()) >= 8:
                found.append((m.start(), m.end(), "payee"))
    if sentence.count("`") >= 2:
        names = [(m.group(1), m.start(), m.end()) for m in _rx(_CODE_NAME).finditer(sentence)]
        for i, (a, a_start, _) in enumerate(names):
            for b, _, b_end in names[i + 1 :]:
                if len(a) >= 4 and len(b) >= 4 and _close(a, b):
                    found.append((a_start, b_end, "lookalike"))
    return found


_HOLD, _BLOCK = "hold", "block"
#: (name, verdict, category, why, needs, negated, absent), strongest first per name.
FRAMES: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    (
        "payment_redirection",
        _BLOCK,
        "covert_action",
        "changes where the user's money is paid, and forbids telling the user or the other side",
        "payee swap userref|thirdparty",
        "speak",
        "",
    ),
    (
        "payment_redirection",
        _BLOCK,
        "covert_action",
        "changes where the user's money is paid, without telling anyone",
        "payee swap covert",
        "",
        "",
    ),
    (
        "payment_redirection",
        _HOLD,
        "covert_action",
        "changes where the user's money is paid",
        "payee swap",
        "",
        "",
    ),
    (
        "security_weakening",
        _BLOCK,
        "covert_action",
        "switches off or loosens a safeguard, and forbids telling the user or the other side",
        "secctl|weakall weaken|weakall userref|thirdparty",
        "speak",
        "scoped",
    ),
    (
        "security_weakening",
        _BLOCK,
        "covert_action",
        "switches off or loosens a safeguard, silently",
        "secctl|weakall weaken|weakall covert",
        "",
        "scoped",
    ),
    (
        "security_weakening",
        _HOLD,
        "covert_action",
        "switches off or loosens a safeguard by default",
        "secctl|weakall weaken|weakall habit|persist",
        "",
        "scoped",
    ),
    (
        "security_weakening",
        _HOLD,
        "covert_action",
        "switches off or loosens a safeguard",
        "secctl weaken",
        "",
        # a restoring clause ("switch it back on after", scanner 46's ``backon``) releases
        # it unless a time limit (``spell``) says how long the device stays off
        "scoped backon",
    ),
    (
        "supply_chain",
        _BLOCK,
        "persistence",
        "installs an unofficial or look-alike package, and forbids telling the user",
        "pkg unofficial|lookalike userref|thirdparty",
        "speak",
        "",
    ),
    (
        "supply_chain",
        _BLOCK,
        "persistence",
        "installs a look-alike or unofficial package in place of the real one, unseen",
        "pkg unofficial|lookalike covert|habit",
        "",
        "",
    ),
    (
        "supply_chain",
        _HOLD,
        "persistence",
        "installs a package from a fork, mirror or look-alike name",
        "pkg|swap unofficial|lookalike swap|covert|habit|persist",
        "",
        "",
    ),
    (
        "supply_chain",
        _HOLD,
        "persistence",
        "names a package a letter away from another one in its place",
        "lookalike pkg|swap",
        "",
        "",
    ),
    (
        "social_engineering",
        _BLOCK,
        "credential_exfiltration",
        "has the agent pose as someone else to obtain codes or credentials",
        "impersonate solicit|cred",
        "",
        "",
    ),
    (
        "social_engineering",
        _BLOCK,
        "credential_exfiltration",
        "asks the user's contacts for their credentials and keeps or forwards them",
        "thirdparty solicit cred",
        "",
        "",
    ),
    (
        "social_engineering",
        _HOLD,
        "covert_action",
        "has the agent pose as someone else to the user's contacts",
        "impersonate thirdparty",
        "",
        "",
    ),
    (
        "social_engineering",
        _HOLD,
        "covert_action",
        "presses the user's contacts for an urgent payment",
        "thirdparty urgent pay",
        "",
        "",
    ),
    (
        "tool_abuse",
        _BLOCK,
        "persistence",
        "puts an entry back whenever the user removes it",
        "restore delete memory|entryword habit|covert",
        "",
        "",
    ),
    (
        "tool_abuse",
        _HOLD,
        "persistence",
        "puts an entry back after it is removed",
        "restore delete memory|entryword",
        "",
        "",
    ),
    (
        "tool_abuse",
        _BLOCK,
        "persistence",
        "rewords a held memory write until the scanner lets it through",
        "evade memory|entry|entryword",
        "",
        "",
    ),
    ("tool_abuse", _HOLD, "persistence", "works a write past the scanner", "evade", "", ""),
    (
        "persistence",
        _BLOCK,
        "persistence",
        "re-creates a startup item the user removed, or runs fetched code at startup, unseen",
        "startup restore|fetch persist|restore|run covert",
        "",
        "",
    ),
    (
        "persistence",
        _HOLD,
        "persistence",
        "re-creates a startup item after it is removed",
        "startup restore",
        "",
        "",
    ),
    (
        "credential_harvesting",
        _HOLD,
        "credential_exfiltration",
        "has the user reply with credentials that the agent keeps",
        "cred reply keep userref|self",
        "",
        "",
    ),
    (
        "prompt_exfiltration",
        _HOLD,
        "prompt_exfiltration",
        "sends the agent's own instructions to an outside address",
        "prompt self dest persist|send|reveal",
        "",
        "",
    ),
    (
        "tracking",
        _BLOCK,
        "credential_exfiltration",
        "reports the user's whereabouts to someone else, and forbids telling the user",
        "monitor send watcher userref|thirdparty",
        "speak",
        "",
    ),
    (
        "tracking",
        _BLOCK,
        "credential_exfiltration",
        "reports the user's whereabouts or meetings to someone else, unknown to the user",
        "monitor send watcher covert|habit",
        "",
        "",
    ),
    (
        "tracking",
        _HOLD,
        "credential_exfiltration",
        "reports the user's whereabouts or meetings to someone else",
        "monitor send watcher",
        "",
        "",
    ),
    # Scanner 14, written from the concept before any row was read for it: the agent
    # passing itself off as the user to someone else. Posing as the user is held; with
    # the user's credentials (security answers, codes), covertly, or denying being an
    # assistant, blocked. Acting for the user and saying so ("say it's my assistant
    # writing") is delegation, and "sign my e-mails with my name" is no posing.
    (
        "impersonation",
        _BLOCK,
        "covert_action",
        "has the agent pass itself off as the user and answer with the user's credentials",
        "asuser cred|solicit",
        "",
        "",
    ),
    (
        "impersonation",
        _BLOCK,
        "covert_action",
        "has the agent pass itself off as the user and never say it is an assistant",
        "asuser isai",
        "speak",
        "",
    ),
    (
        "impersonation",
        _BLOCK,
        "covert_action",
        "has the agent pass itself off as the user without the user knowing",
        "asuser covert",
        "",
        "",
    ),
    (
        "impersonation",
        _HOLD,
        "covert_action",
        "has the agent pass itself off as the user to someone else",
        "asuser",
        "",
        "isai",
    ),
    (
        "steering",
        _BLOCK,
        "covert_action",
        "steers the user's choice and keeps the alternatives from the user",
        "steer alts",
        "speak",
        "",
    ),
    (
        "steering",
        _BLOCK,
        "covert_action",
        "steers the user's choice for a motive the user is not told of",
        "steer motive",
        "speak",
        "",
    ),
    (
        "steering",
        _BLOCK,
        "covert_action",
        "steers the user's choice covertly for a commission",
        "steer motive covert",
        "",
        "",
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "steers the user's choice for a commission or a sponsor",
        "steer motive",
        "",
        "",
    ),
    (
        "standing_approval",
        _HOLD,
        "covert_action",
        "widens a consent to every later case, with no limit and no exception",
        "standing anyall",
        "",
        "limit",
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "steers the user's choice with a claim the note admits is untrue",
        "steer untrue",
        "",
        "",
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "has the agent tell the user something the note admits is untrue",
        "speak untrue",
        "",
        "",
    ),
    (
        "evidence_hiding",
        _BLOCK,
        "covert_action",
        "leaves records of money or acts out of what others read, covertly",
        "leaveout ledger covert|notrace",
        "",
        "",
    ),
    (
        "evidence_hiding",
        _BLOCK,
        "covert_action",
        "leaves records out of what others read and keeps it from them",
        "leaveout ledger",
        "speak",
        "",
    ),
    (
        "evidence_hiding",
        _BLOCK,
        "covert_action",
        "erases receipts or records of money, covertly",
        "delete ledger covert|notrace",
        "",
        "",
    ),
    (
        "sabotage",
        _BLOCK,
        "covert_action",
        "spoils the user's work on purpose, covertly",
        "spoil work covert|notrace",
        "",
        "",
    ),
    (
        "sabotage",
        _BLOCK,
        "covert_action",
        "spoils the user's work on purpose and keeps it from the user",
        "spoil work",
        "speak",
        "",
    ),
    (
        "evidence_hiding",
        _BLOCK,
        "covert_action",
        "falsifies a record of what was done, covertly or to make it look otherwise",
        "falsify|backdate covert|notrace|pretend",
        "",
        "",
    ),
    (
        "evidence_hiding",
        _HOLD,
        "covert_action",
        "falsifies a record of what was done (backdates it, edits its trail)",
        "falsify",
        "",
        "",
    ),
    (
        "memory_poisoning",
        _BLOCK,
        "persistence",
        "changes memory, skills or other entries covertly",
        "alter memory|xref covert|notrace",
        "",
        "",
    ),
)


# Scanner 26: keys and frames for a record that someone other than the user relies on:
# evidence tampering and memory poisoning in the agent's voice.
#
# The principle, written before these keys: an attack of these families changes a record
# that **someone else reads and trusts** (an auditor, an inspector, an insurer, a
# regulator, the police, a complaints desk; or a later session, a colleague, another
# coach or pharmacist reading a shared note, another memory entry or a skill), and changes
# it **before that reader looks, silently, backdated, or to say what did not happen**.
# Its honest twin uses the same words but keeps the record as it is and says so (exports
# it "unchanged", "includes every entry", "leaves the earlier entries untouched", adds a
# dated addendum, flags a row for a person), or is the user correcting a record of their
# own in the open (a typo, a note of their own preferences). So a frame needs a change
# (an edit, a rewrite, a removal, a date moved), an object relied on by someone else, and
# that someone or the falsehood; the honest twin lacks the change, not the words.
#
# Concepts (every key a phrase, an English word or a word of a script without spaces, so
# that the classifier's function words do not change; see ``_lexicon_more``):
#
# * ``relied``, the object: a record kept for someone else to read (an incident note, a
#   register, a delivery note, minutes, a treatment or medical record, a timesheet, a
#   chat log, a file's metadata, an expense's dates);
# * ``reviewer``, who relies on it: an audit or auditor, an inspection or inspector, an
#   insurer or adjuster, a regulator, the police, a complaint, a court;
# * ``redate``, the action: a record's date or time changed ("change the date in the
#   metadata", "cambia las fechas", "date the note yesterday");
# * ``othernotes``, the object of poisoning: entries the user did not write for this one
#   change (the other notes, every entry, other people's notes, the older note);
# * ``assent``, what poisoning writes there: an approval, a consent, a check passed or a
#   safety claim ("approved all refunds", "listed as safe", "already validated");
# * ``mishap``: a slip the user makes ("if they paste it by mistake"), which is no
#   request for what was pasted (the two generated honest notes scanner 23 left blocked).
#
# :data:`RECORD_FRAMES` combine them with the intent layer's actions (``alter``,
# ``overwrite``, ``delete``, ``leaveout``, ``redate``) and modifiers; each is a **hold**:
# a person approves the note if the record is the user's own and the change is what
# happened. (Kept in this module, not a new one: a module more on the start-up paths
# would break their budgets, tests/e2e/test_startup.py.)

#: Scanner 26's concepts that are actions: a negation before them cancels them.
RECORD_ACTIONS = frozenset({"redate", "addline", "changeword"})

RECORD: dict[str, str] = {
    "relied": """
        incident note*; incident report*; incident log*; incident record*;
        incident timeline*; the timeline; delivery note*; delivery record*; delivery receipt*;
        proof of delivery; the register; drugs register; controlled drugs register;
        treatment record*; treatment note*; treatment log*; medical record*; patient record*;
        clinical note*; care record*; medication record*; administration record*;
        the minutes; meeting minutes; logbook*; log book*; timesheet*; time sheet*;
        tachograph*; inspection note*; inspection record*; inspection report*;
        maintenance log*; maintenance record*; temperature log*; temperature record*;
        safety log*; training record*; attendance record*; visitor log*; the metadata;
        photo metadata; chat log*; chat transcript*; claim file*; case file*;
        expense report*; change log*; commit history; repository history; git history;
        the books; dates of the expenses;
        expediente*; parte de incidente*; informe de incidente*; nota de entrega;
        albaran*; el acta; las actas; historia clinica; historial clinico; hoja de horas;
        metadatos; registro de accesos; registro de tratamientos; registro de incidencias;
        journaux d'acces; journal d'acces; main courante; proces-verbal; compte rendu;
        dossier medical; bon de livraison; releve d'heures; metadonnees; registre des;
        les dates des depenses;
        chatprotokoll*; vorfallsbericht*; unfallbericht*; lieferschein*; fahrtenbuch*;
        stundenzettel*; patientenakte*; krankenakte*; behandlungsprotokoll*; metadaten;
        registro dei; registro delle; il registro; cartella clinica; bolla di consegna;
        verbale della; metadati;
        log de acessos; registro de acessos; ata da; nota de entrega; prontuario*;
        relatorio de incidente; metadados;
        notulen; logboek*; incidentrapport*; pakbon*; urenregistratie; metadata;
        dziennik zdarzen; rejestr*; dokumentacj* medyczn*; historia choroby;
        list przewozowy; metadane;
        журнал*; протокол*; реестр*; медицинск* карт*; истори* болезни; накладн*;
        табел*; метаданн*; хронологи* инцидента; переписк*;
        реєстр*; медичн* картк*; метадан*;
        tutanak*; hasta dosyası; teslim belgesi; kayıtları; kayitlari;
        日志; 事故报告; 病历; 送货单; 会议纪要; 登记簿; 元数据; 审计日志; 访问日志;
        議事録; 事故報告; カルテ; 診療記録; 納品書; 台帳; メタデータ; アクセスログ;
        회의록; 사고 보고서; 진료 기록; 의무 기록; 납품서; 장부; 메타데이터; 접속 기록;
        سجل التعديلات; سجل الدخول; سجل الوصول; المحضر; تقرير الحادث; الملف الطبي;
        البيانات الوصفية; سجل المكالمات;
        रजिस्टर; कार्यवृत्त; घटना रिपोर्ट; मेडिकल रिकॉर्ड
    """,
    "reviewer": """
        audit; audits; the audit; auditor*; inspection; inspections; inspector*; insurer*;
        insurance; adjuster*; loss adjuster*; assessor*; regulator*; the police; police;
        complaint*; claim deadline; the claim; tribunal; court; the judge; ombudsman;
        tax office; tax inspector*; cqc; ofsted; postmortem; the postmortem; post-mortem;
        the client asks; the customer asks; someone asks for; anyone asks for;
        l'audit; l'auditeur; l'inspecteur; l'inspection; l'assureur; l'assemblee generale;
        l'expert; si quelqu'un demande; l'ispettore; l'assicurazione; l'ispezione;
        si alguien pide; el cliente pide; wenn jemand nach; wenn der kunde; разбор;
        طلب العميل;
        auditoria; auditor; inspeccion; aseguradora*; perito; peritacion; peritaje;
        reclamacion*; queja*; denuncia; policia; juez;
        auditeur*; inspecteur*; inspection du travail; assureur*; expertise;
        reclamation*; plainte*; commissaire aux comptes; assemblee generale;
        prufung; betriebsprufung; prufer*; inspektion; versicherung*; gutachter*;
        beschwerde*; reklamation*; polizei; gericht; aufsichtsbehorde*;
        revisione contabile; revisore*; ispezione; ispettore*; controllo asl; assicurazione;
        reclamo*; polizia; tribunale; giudice;
        auditoria; inspecao; fiscalizacao; seguradora*; reclamacao; queixa; anpd;
        inspectie; inspecteur; verzekeraar*; klacht*; politie; rechter; kascommissie;
        audyt*; inspekcj*; inspektor*; ubezpieczyciel*; reklamacj*; skarg*; policj*;
        аудит*; инспекци*; инспектор*; страхов*; жалоб*; претензи*; полици*; ревизи*;
        перевірк*; інспекці*; скарг*; поліці*;
        denetim*; denetci*; teftis*; mufettis*; sigorta*; sikayet*; şikâyet*; polis*;
        mahkeme*;
        审计; 检查员; 保险公司; 投诉; 警察; 法院; 监管; 稽查;
        監査; 査察; 保険会社; 苦情; 警察; 検査官;
        감사; 보험사; 민원; 경찰; 법원; 점검;
        التدقيق; المدقق; التفتيش; المفتش; شركة التأمين; شكوى; الشرطة; المحكمة;
        ऑडिट; निरीक्षण; बीमा कंपनी; शिकायत; पुलिस; अदालत
    """,
    "redate": """
        change the date*; change the time*; change its date; change the timestamp*;
        alter the date*; edit the date*; edit the timestamp*; move the date*; set the date*;
        date it; date them; date the; re-date; redate; put yesterday's date;
        cambia la fecha; cambiar la fecha; cambia las fechas; cambiar las fechas;
        modifica la fecha; change la date; changer la date; change les dates;
        changer les dates; modifie la date; modifier la date; andere das datum;
        andere die daten; datum andern; datum anpassen; cambia la data; cambiare la data;
        modifica la data; cambia le date; mude a data; mudar a data; altere a data;
        muda a data; verander de datum; wijzig de datum; zmien date; zmienic date;
        zmien daty; измени дату; изменить дату; поменяй дату; поменять дату;
        исправь дату; измени даты; зміни дату; змінити дату; tarihi degistir*;
        改日期; 修改日期; 更改日期; 修改时间; 日付を変; 日付を書き換; 日付を修正;
        날짜를 바꾸; 날짜를 바꿔; 날짜를 변경; 날짜를 수정; غير التاريخ; تغيير التاريخ;
        عدل التاريخ; तारीख बदल
    """,
    "othernotes": """
        other notes; the other notes; other entries; the other entries; other memory files;
        the other memory files; other memories; every entry; every note; every other note;
        every other entry; all other notes; all the other notes; every new memory;
        every memory; contact entry; other people's notes; colleagues' notes;
        other coaches; the other coaches; others' notes; the team's notes; shared notes;
        the shared note; the team note; other skills; every skill; the other skill;
        the older note; an older note; older notes; the earlier entries; earlier entries;
        previous entries; the previous entries; any future note; every future note;
        any note that; every new; each new; the user's saved; saved interaction table;
        saved table; her yeni;
        las demas notas; las otras notas; otras notas; todas las notas; notas de otros;
        las notas de los demas; otras entradas; les autres notes; autres notes;
        toutes les notes; les notes des autres; les autres entrees;
        die anderen notizen; andere notizen; alle notizen; alle anderen notizen;
        andere eintrage; anderen mannschaften; le altre note; altre note; tutte le note;
        le note degli altri; as outras notas; outras notas; todas as notas;
        notas dos outros; notas dos outros farmaceuticos; de andere notities;
        andere notities; alle notities; andere geheugenbestanden;
        de andere geheugenbestanden; inne notatki; pozostałe notatki; wszystkie notatki;
        другие заметки; другие записи; все заметки; все записи; остальные заметки;
        заметки коллег; інші нотатки; всі нотатки; усі нотатки; diğer notlar*;
        diğer tüm notlar*; tüm notlar*; 其他笔记; 其它笔记; 所有笔记; 其他条目; 别人的笔记;
        他のメモ; ほかのメモ; すべてのメモ; 다른 메모; 모든 메모; الملاحظات الأخرى;
        جميع الملاحظات; كل الملاحظات; ملاحظات الآخرين; अन्य नोट्स; सभी नोट्स
    """,
    "assent": """
        approved; approved all; agreed to; agreed that; consented; validated;
        already validated; verified; signed off; listed as safe; as safe; is safe; are safe;
        safe together; is reliable; is trusted; no check needed; no need to check;
        is outdated; was inspected; were inspected; only approved; received in good condition;
        in good condition; no issues; nothing to report; shared publicly; can be shared;
        aprobado*; validado*; verificado*; es seguro; son seguros; son opcionales;
        sin incidencias; en buen estado; deja valide; valide par; rien a signaler;
        en bon etat; genehmigt; freigegeben; unbedenklich; keine besonderheiten;
        approvato*; validato*; nessuna anomalia; in buono stato; aprovado*;
        ja foi validado; sem ocorrencias; em bom estado; goedgekeurd; gevalideerd;
        geen bijzonderheden; zatwierdzon*; bez uwag; одобрен*; утвержден*; безопасно;
        безопасны; безопасен; безопасна;
        без замечаний; затверджен*; схвален*; onaylandı; onaylandi; güvenilir;
        paylaşılabilir; paylasilabilir; 已批准; 已验证; 无需检查; 没有问题; 无异常;
        承認済み; 確認済み; 検証済み; 問題なし; 승인됨; 문제 없; تمت الموافقة;
        تم التحقق; स्वीकृत; सत्यापित
    """,
    # What the honest twin says of the record: kept whole, as it is.
    "intact": """
        unchanged; unedited; as it is; as they are; exactly as; as recorded; intact;
        in full; complete; completo; completa; complete log; original files; original metadata;
        tels quels; tel quel; telle quelle; integralement; integral; integralmente;
        tal cual; tal como esta; sin cambios; sin modificar; unverandert; vollstandig;
        ungewijzigd; integraal; ongewijzigd; полностью; без изменений; как есть;
        bez zmian; w całości; degistirmeden; eksiksiz; 完整; 原样; 原封不动; そのまま;
        改変せず; 그대로; 원본; كما هو; كاملا; كاملة; जैसा है
    """,
    # The user deciding, in the open, what happens to their record (the honest twin).
    "userdecides": """
        i decide; i'll decide; i will decide; i choose which; the user decides;
        she decides; he decides; they decide; decides which; we review together;
        review them together; yo decido; decido yo; decido cuales; revisamos juntos;
        je decide; c'est moi qui decide; ich entscheide; entscheidet sie; decido io;
        eu decido; ik beslis; ja decyduje; я решаю; решает пользователь; ben karar veririm;
        我来决定; 私が決め; 내가 결정; أنا أقرر
    """,
    # A line added into a note or a skill (poisoning writes its claim so).
    "addline": """
        add a line; add a sentence; add a note saying; append a line; append a sentence;
        insert a line; insert a sentence; save this sentence; acrescento; acrescentar;
        acrescente; ajoute une ligne; ajouter une ligne; anade una linea; agrega una linea;
        fuge eine zeile; fuge einen satz; aggiungi una riga; aggiungi una frase;
        voeg een regel; dodaj linijke; dodaj zdanie; добавь строку; добавь фразу;
        add to every; add to all; add to the other; add to each; anade; agrega; agregue;
        ajoute a; ajoute aux; aggiungi a; aggiungi alle; adicione; fuge hinzu; voeg toe aan;
        dopisz; добавь в; добавь во; додай до; ekle; 加一行; 加一句; 一行追加; 한 줄 추가;
        أضف سطرا; أضف جملة
    """,
    # A change of what a note says (poisoning's verb besides edit and rewrite).
    "changeword": """
        change; changes; soften; water down; tone down; rewritten; reworded; reword;
        cambia; cambiar; modifica; changer; modifie; verandere; verander;
        wijzig; zmien; zmienić; измени; поменяй; переделай; зміни; güncelle; guncelle;
        anpassen; passe an; ajuste; ajustar; aggiusta;
        değiştir; 改成; 改为; 変えて; 바꿔
    """,
    "mishap": """
        by mistake; by accident; accidentally; in error; inadvertently; por error;
        por accidente; sin querer; par erreur; par accident; par megarde; versehentlich;
        aus versehen; per sbaglio; per errore; por engano; sem querer; per ongeluk;
        przez pomyłkę; przypadkiem; по ошибке; случайно; помилково; випадково;
        yanlışlıkla; yanlislikla; 不小心; 误贴; 誤って; うっかり; 실수로; بالخطأ;
        عن طريق الخطأ; गलती से
    """,
}

#: Keys of concepts the layer already has (a form the lexicon lacked).
RECORD_MORE: dict[str, str] = {
    "delete": """
        losch; se borran; se borra; borran; en retirant; retirant; supprimant
    """,
    "notrace": """
        no trace; leave no trace; without a trace; no queda registro; sin dejar rastro;
        sans laisser de trace; ohne spuren; senza lasciare traccia; sem deixar rastro;
        не оставляя следов; żeby nie było śladu; zeby nie było sladu; iz birakmadan;
        不留痕迹; 痕跡を残さ; 흔적을 남기지; nobody asks questions; no one asks questions;
        nadie hace preguntas; personne ne pose de questions; niemand fragt nach;
        nessuno fa domande
    """,
    "pretend": """
        looks clean; look clean; parece limpio; parezca limpio; l'air propre
    """,
    "covert": """
        mussen das nicht erfahren; muss das nicht erfahren; niet over beginnen;
        no hace falta que lo sepan; n'ont pas besoin de le savoir
    """,
}

#: What changes a record: an edit, a rewrite, a removal, a date moved.
_CHANGE = "alter|overwrite|delete|leaveout|redate|falsify|backdate"
#: A record someone else relies on.
_RELIED = "relied|evidence|ledger"

#: The frames (the fields of :class:`.intent._Frame`: name, verdict, category, why,
#: needs, negated, absent, unless, command). ``command`` is set so that a word such as
#: "incident" or "ticket", which the layer reads as a description of a threat, does not
#: lower them: here it names the record changed.
RECORD_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "evidence_tampering",
        _HOLD,
        "covert_action",
        "changes or removes a record someone else relies on (an auditor, an inspector, "
        "an insurer, a complaint) before they read it: approve it only if the record is "
        "the user's own and the change is what happened",
        f"{_CHANGE} {_RELIED}|entryword reviewer|notrace",
        "",
        "intact userdecides",
        "",
        True,
    ),
    (
        "evidence_tampering",
        _HOLD,
        "covert_action",
        "changes a record someone else relies on, silently or to make it look otherwise: "
        "approve it only if the record is the user's own and the change is what happened",
        f"{_CHANGE} {_RELIED} pretend|untrue|covert|notrace",
        "",
        "intact userdecides",
        "",
        True,
    ),
    (
        "memory_poisoning",
        _HOLD,
        "persistence",
        "writes an approval, a consent or a safety claim into other entries, skills or "
        "other people's notes: approve it only if the user made that claim",
        "alter|overwrite|addline|changeword othernotes|xref|memory assent",
        "",
        "userdecides",
        "",
        True,
    ),
    (
        "memory_poisoning",
        _HOLD,
        "persistence",
        "rewrites other entries or other people's notes to say something else: approve it "
        "only if the user asked for that change",
        "alter|overwrite|changeword othernotes|xref speak",
        "",
        "userdecides",
        "",
        True,
    ),
    (
        "memory_poisoning",
        _HOLD,
        "persistence",
        "changes or clears other entries or other people's notes silently, or so that no "
        "one asks: approve it only if the user asked for that change",
        "alter|overwrite|changeword|delete othernotes covert|notrace|pretend",
        "",
        "userdecides",
        "",
        True,
    ),
)

# Scanner 29: the agent's own voice, and a second half that works on another note's
# content. Principle (docs/scanner.md, "Scanner 29"): an attack in the agent's own voice
# describes a standing behaviour that works against the user or someone the user works
# with: a value made wrong on purpose, a result arranged so that someone else takes the
# blame, work reported as fine whatever it holds, a decision steered while the user is not
# to notice. The honest twin fixes, checks, flags or lets the user decide; it lacks the
# arrangement, not the words.
VOICE_ACTIONS = frozenset({"wrongval", "blame"})

VOICE: dict[str, str] = {
    # A value put in wrong on purpose (not "two sizes were wrong last year").
    "wrongval": """
        to the wrong; the wrong ones; the wrong one; the wrong date*; the wrong day;
        the wrong time*; the wrong saturday; the wrong sunday; the wrong address;
        the wrong size*; the wrong figure*; the wrong number*; the wrong dose*;
        wrong dates; wrong figures; wrong measurements; wrong numbers; wrong doses;
        so that they are wrong; so they are wrong; deliberately wrong; incorrect ones;
        fechas equivocadas; fecha equivocada; datos equivocados; medidas equivocadas;
        cifras falsas; a la fecha equivocada; dates erronees; date erronee; mauvaise date;
        mauvaises dates; mauvais chiffres; mauvaises mesures; falsche datum; falsche daten;
        falschen termin; falsche zahlen; falsche masse; misure sbagliate; data sbagliata;
        date sbagliate; cifre sbagliate; numeri sbagliati; datas erradas; data errada;
        medidas erradas; numeros errados; грешните дати; грешни дати; грешната дата;
        неправильные даты; неправильную дату; неправильные цифры; неверные данные;
        неправильн* дозиров*; yanlış tarih*; yanlış yaz; yanlış olarak; verkeerde datum;
        verkeerde data; verkeerde maten; zle daty; zła datę; niewłaściwe daty;
        błędne dane; gresite; data gresita; pogresne datume; pogresan datum; krive datume;
        sadyang mali; maling petsa; tarehe zisizo sahihi; muda usio sahihi; tarikh salah;
        tanggal yang salah; 間違った日付; 間違った数字; 错误的日期; 错误的数字; 错的日期;
        تواريخ خاطئة; تاريخ خاطئ; أرقام خاطئة; غलत तारीख; गलत संख्या; galat tarikh
    """,
    # Someone else made to take the blame, look incompetent or fail.
    "blame": """
        take the blame; takes the blame; get the blame; gets the blame; the blame falls;
        blame will fall; blame falls on; look disorganised; looks disorganised;
        look disorganized; looks disorganized; look incompetent; looks incompetent;
        look careless; looks careless; look sloppy; look unreliable; look bad in front;
        seem incompetent; seem careless; look like the supplier's fault; look like her fault;
        look like his fault; look like their fault; look like her mistake;
        look like his mistake; so we forfeit; so they forfeit;
        cargue con la culpa; cargara con la culpa; parezca incompetente;
        parezca desorganizad*; parezca culpa; levar a culpa; leva a culpa; parecer dela;
        parecer dele; parecer culpa; parecer incompetente; porte le chapeau;
        portera le chapeau; passe pour incompetent*; paraisse incompetent*;
        paraisse desorganise*; die schuld bekommt; die schuld kriegt; als unfahig dasteht;
        inkompetent wirkt; unfahig wirkt; auffliegen; si prenda la colpa; prendera la colpa;
        sembri incompetente; sembri disorganizzat*; deve andare male; krijgt de schuld;
        de schuld krijgt; incompetent lijkt; wina spadnie; niech się tłumaczy;
        bedzie wygladac na; будет виноват*; выглядела некомпетентн*; выглядел некомпетентн*;
        ще изглежда некомпетентн*; kendi hatası sanılsın; hatası sanılsın;
        sucu ona; izskatitos pavirsa; aonekane hawezi; magmukhang hindi;
        phasega; phasegi; ミスに見える; せいにな; 看起来工作很马虎; 背锅; 显得她; 显得他;
        يبدو المدرب; حتى يبدو; تبدو غير; निष्काळजी वाटेल; लापरवाह लगे;
    """,
    # On purpose ("'accidentally'", quoted, is on purpose too).
    "deliberate": """
        on purpose; deliberately; intentionally; 'accidentally'; "accidentally";
        a proposito; adrede; a posta; expres; a dessein; volontairement; deliberement;
        absichtlich; mit absicht; apposta; di proposito; de proposito; propositadamente;
        celowo; opzettelijk; met opzet; нарочно; намеренно; умишлено; kasten; bilerek;
        kasıtlı; namjerno; namerno; intentionat; dinadins; szandekosan; schvalne;
        umyselne; zamerne; sengaja; makusudi; sadyang; عن قصد; عمدا; わざと; 故意;
        जानबूझकर; मुद्दाम
    """,
    # The work reported as fine (with a concession: "even when a reference is missing").
    "allgood": """
        looks fine; look fine; it's fine; it is fine; all fine; everything is fine;
        everything's fine; all good; looks good; it's complete; it is complete;
        all correct; everything matches; it all matches; nothing is missing;
        esta bien; todo bien; todo correcto; esta completo; esta completa; todo cuadra;
        tout va bien; c'est bon; tout est en ordre; c'est complet; tout correspond;
        alles in ordnung; alles passt; alles stimmt; ist vollstandig; va tutto bene;
        e tutto a posto; e completo; e completa; tutto corrisponde; esta tudo bem;
        tudo certo; esta completo; tudo bate; всё в порядке; все в порядке; всё совпадает;
        все совпадает; всё хорошо; e completa; e complet; totul e in regula; e in regula;
        всичко е наред; wszystko w porzadku; wszystko sie zgadza; alles klopt;
        alles in orde; her sey yolunda; her sey tamam; 問題ない; 問題ありません; 没问题;
        一切正常; كل شيء على ما يرام; सब ठीक है; सबै ठीक छ
    """,
    # One side of a choice presented on purpose.
    "onlyside": """
        only the risks; only the downsides; only the disadvantages; only the drawbacks;
        only the flaws; only the negatives; only the complaints; only the problems;
        only the side effects; only the pros; only the costs; only the failures;
        only its discounts; only the discounts; only the benefits; none of its;
        and skip the fact; solo los pros; solo las desventajas; solo los riesgos;
        solo los problemas; seulement les effets; seulement les risques;
        seulement les inconvenients; que les inconvenients; nur die nachteile;
        nur die risiken; nur die storungen; solo i difetti; solo i rischi; solo gli svantaggi;
        so os riscos; so as desvantagens; apenas os riscos;
        alleen de storingen; alleen de nadelen; alleen de risico's; tylko opinie negatywne;
        tylko wady; tylko ryzyka; doar reclamatiile; doar dezavantajele; doar riscurile;
        samo troskove; samo nedostatke; samo mane; 
        hanya sebut kelemahan; hanya kelemahan; 
        только ошибки; только недостатки; только риски; лише незадоволених;
        лише недоліки; tol'ko oshibki; bas el-mashakel; 只说缺点; 只提缺点; 缺点だけ;
        欠点だけ; リスクだけ; فقط العيوب; فقط المشاكل; मात्र खराबी; सिर्फ़ कमियाँ;
        లోపాలు మాత్రమే
    """,
    # The agent's own wish for how the user decides.
    "mywish": """
        i want her to; i want him to; i want them to; she should end up; he should end up;
        keep her committed; keep him committed; i'd rather she; i'd rather he;
        which is what i want; quiero que elija; quiero que acepte;
        je prefere qu'elle; je prefere qu'il; sie soll absagen; sie soll zusagen;
        voglio che scelga; voglio che resti; quero que aceite; quero que escolha;
        hoću da izabere; hocu da izabere; vreau sa ramana; vreau sa aleaga;
        saya mahu dia; haluan hanen; nataka abaki; хочу, чтобы; khochu, chtoby;
        niech mysli; 我希望她; 我想让她; 彼女に選ばせ; أريدها أن
    """,
    # The user is not to notice that she was steered, or why.
    "unaware": """
        without noticing; without realising; without realizing; without knowing why;
        needn't know that's why; needn't know why; doesn't need to know why;
        noticing she was steered; noticing he was steered; that i steer her;
        that i'm steering; her own idea; his own idea; she decided herself;
        he decided himself; sin darse cuenta; sin que sepa por que; crea que fue idea suya;
        sans s'en rendre compte; pas besoin qu'elle sache; pas besoin qu'il sache;
        ohne zu merken; ohne es zu merken; senza accorgersene; credendo che sia una sua idea;
        sem perceber; nao precisa saber porque; hoeft niet te weten; zonder het te merken;
        sama doszła do wniosku; sam doszedł do wniosku; nie musi wiedziec dlaczego;
        a hotarat singura; a hotarat singur; fara sa-si dea seama; da ne primeti;
        da ne primijeti; ne treba znati; ne mora znati; tanpa sedar; ei saa huomata;
        huomaamatta; ei pea teadma; bila kujua; не должна заметить; не должен заметить;
        ne dolzhna zametit'; не повинна знати; не повинна помітити; mat3rafsh;
        थाहा नहोस्; पता न चले; 気づかれないよう; 気づかせず; 不让她察觉; 不让他察觉;
        不知不觉; دون أن تلاحظ; دون أن تدرك
    """,
    # The agent's own pick of a vendor or brand (not the user's stated preference).
    "mypick": """
        the one i like; the one i prefer; the shop i like; the shop i prefer;
        the supplier i like; the vendor i like; the brand i like; the brand i chose;
        the firm i chose; the one i've settled on; my preferred vendor; my favourite maker;
        den ich mag; die ich mag; al que me conviene; la que me conviene; que dico io;
        que eu escolhi; pe care o prefer; koga ja hocu; ktoru mam rada; que jo vull;
        savu izveleto; kelle ma valja valisin; yang saya suka; yang saya sukai;
        kedvenc boltomat; det jag foredrar; που προτιμω; अपनी पसंद
    """,
    # A false reason for the pick told to the user.
    "pickclaim": """
        is the cheapest; it's the cheapest; the cheapest one; as the standard ones;
        the same as always; the club requires; requires that brand; contracted supplier;
        describe the others as; the others didn't reply; el mismo de siempre; el mas barato;
        es el unico; es la unica; come piu care; e la recomendada; der gunstigste;
        csak azt fogadja el; celelalte au; jedini koji; l'unica amb; paling murah;
        kommunen har bestamt; τα αλλα δεν; sirf wahi; सिर्फ़ वही
    """,
    # The honest twin checks, corrects or flags.
    "fixit": """
        double-check; double check; check that; check the; check every; make sure;
        correct the; correct it; fix the; flag; flags; avoid; so nothing; so that nothing;
        verifica; verifique; comprueba; revisa; verifie; controle; prufe; uberprufe;
        kontrolliere; controlla; confere; проверь; провери; kontrol et; sprawdz; sprawdzam;
        controleer; 确认; 核对; 確認; تحقق; जाँच
    """,
    # Another note's content named for use ("the file from the previous note").
    "xref": """
        from the previous note; in the previous note; in yesterday's note;
        from yesterday's note; from before; the previous ticket; mentioned in section;
        de la note precedente; dans la note precedente; la note precedente;
        de la nota anterior; la nota anterior; en la nota anterior; della nota precedente;
        nella nota precedente; nota precedente; da nota anterior; na nota anterior;
        citado na parte; aus der vorigen notiz; aus der letzten notiz; uit de vorige notitie;
        z poprzedniej notatki; poprzedniej notatki; din nota anterioara; nota anterioara;
        iz prethodne beleske; iz prethodne biljeske; iz gornje biljeske; prethodne beleske;
        edellisen muistiinpanon; eelmises kirjes; eelmise kirje; ankstesnio iraso;
        a korabbi jegyzetbol; az elozo jegyzetbol; nota sebelum ini; catatan sebelumnya;
        yang dicatat sebelumnya; sa kabilang note; naunang tala; z minule poznamky;
        z predchozi poznamky; от предната бележка; от предишната бележка;
        предната бележка; pichhle note; doosre note; अघिल्लो नोट; முந்தைய குறிப்பில்;
        o'r nodyn cyntaf; предыдущей заметки; из прошлой заметки; the entry from last week;
        the note from last week; que deje arriba; nga shenimi i meparshem; from the family note;
        from the warehouse note; nella nota
    """,
    # Another note's content put to use ("apply the adjustment", "use the numbers").
    "applyit": """
        apply; applies; follow the steps; use the account; use the numbers; use the code;
        use the contact; use the backup contact; use the token; use the wording;
        aplica; aplique; applica; applique; appliquer; wende an; anwenden; pas toe;
        zastosuj; примени; применяй; используй; usa os numeros; usa los numeros;
        gib ihm die liste; gunakan; tumia; gamitin; terapkan; 应用; 適用; طبق
    """,
    # Without asking or telling, in the languages of the second halves.
    "covert": """
        sin preguntar; sin avisar; sin decir nada; sans demander; sans en parler; senza chiedere;
        senza dirlo; sem perguntar; sem avisar; ohne nachzufragen; ohne zu fragen;
        zonder te vragen; bez pytania; bez pitanja; bez ptanja; bez pytani; kysymatta;
        vaikselt; csendben; tanpa konfirmasi; tanpa bertanya; bina puche; bina puchhe;
        fara sa intrebi; heb son wrth; heb ddweud wrth neb; pa pyetur; без да питаш;
        don't bother the user; do not bother the user;
        без да пита; கேட்காமல்; नसोधी; बिना पूछे
    """,
}

#: The frames (fields as in :data:`RECORD_FRAMES`), each a hold: a person approves it if
#: the note is what it seems to be.
VOICE_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "sabotage",
        _HOLD,
        "covert_action",
        "has the agent put a wrong value into work on purpose: approve it only if the "
        "wrong value is a test or a joke the user knows of",
        "wrongval alter|changeword|send|provide|speak|touser|deliberate|covert|leaveout",
        "",
        "fixit",
        "",
        True,
    ),
    (
        "sabotage",
        _HOLD,
        "covert_action",
        "arranges the agent's work so that someone else takes the blame or fails: approve "
        "it only if that is no one's harm",
        "blame alter|changeword|send|provide|speak|touser|leaveout|delete|deliberate|"
        "covert|wrongval|habit|mywish|work|ledger|relied",
        "",
        "fixit",
        "",
        True,
    ),
    (
        "sabotage",
        _HOLD,
        "covert_action",
        "has the agent report work as fine whatever it finds",
        "allgood speak|reply|touser concede|untrue",
        "",
        "fixit",
        "",
        True,
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "steers the user's decision by what it shows, so she does not notice",
        "onlyside|steer|mywish|leaveout|hide unaware|notrace",
        "",
        "",
        "",
        True,
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "shows the user one side of a decision toward an outcome the agent wants",
        "onlyside mywish",
        "",
        "",
        "",
        True,
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "picks a vendor by the agent's own liking and gives the user another reason",
        "mypick pickclaim|untrue|concede",
        "",
        "",
        "",
        True,
    ),
    (
        "split_half",
        _HOLD,
        "covert_action",
        "sends, runs or applies another note's content without asking or telling",
        "xref send|run|provide|pay|overwrite|fetch|alter|applyit covert",
        "",
        "",
        "",
        True,
    ),
    (
        "split_half",
        _HOLD,
        "covert_action",
        "sends, runs or applies another note's content and forbids telling anyone",
        "xref send|run|provide|pay|overwrite|fetch|alter|applyit",
        "speak",
        "",
        "",
        True,
    ),
)


# Keys and frames of the intent layer for account takeover (scanner 33): a note that
# changes who can get into the user's account, unchecked or unseen.
#
# A stored note that has the agent change the recovery e-mail address, register a phone as
# the MFA device, add an SSH key or approve an OAuth app "without checking", "on their
# word", or without telling the user hands the account to whoever wrote it, in every later
# session. Three concepts, each written from the concept once in every language the intent
# layer reads (see :mod:`.lexicon` for how a key is matched; keys are written folded):
#
# * ``acctctl``, the object: what decides who can get into an account (its recovery
#   e-mail address or phone number, MFA/2FA devices and authenticator apps, trusted
#   devices, security keys, app passwords, OAuth grants and connected apps, SSH and GPG
#   keys, mailbox delegates and forwarding rules, the account's owner);
# * ``enroll``, the action: change, register, add, link, approve, authorise, transfer,
#   reset, replace; an action, so a negation cancels it ("never change the recovery
#   e-mail");
# * ``unchecked``, the frame: without checking or verifying, on someone else's word,
#   whoever asks, no questions asked.
#
# The user changing their own recovery e-mail, a runbook adding a colleague's key under an
# approved ticket, or a note that IT reset MFA after a lost phone names the object and the
# action but neither frame: they are not read. :data:`TAKEOVER_FRAMES` combine them (the fields of
# :data:`RECORD_FRAMES`). The concepts are new, so taking
# :data:`TAKEOVER` out of the table gives the table without them
# (``bench/_scan_loso33.py``).
#: The new concepts that are actions: a negation before them cancels them.
TAKEOVER_ACTIONS = frozenset({"enroll"})

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
        klucz ssh; klucze ssh; klucz gpg; hasło aplikacji; reguł* przekazywania;
        przekierowani* poczty; właściciel* konta; aplikacj* uwierzytelniajac*; резервн* почт*;
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
        email khoi phuc; số điện thoại khôi phục; thiet bi tin cay; khoa bao mat; khoa ssh;
        mat khau ung dung; quy tac chuyen tiep; tự động chuyển tiếp; chu so huu tai khoan;
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
        email za oporavak; telefon za oporavak; broj za oporavak; pouzdan* uređaj*;
        sigurnosni kljuc; ssh kljuc; lozinka aplikacije; pravilo prosljeđivanja;
        automatsko prosljedivanje; vlasnik racuna; vlasnik naloga; e-mail za oporavak;
        pravilo prosleđivanja; autentifikator*; имейл за възстановяване;
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
        sikkerhedsnøgle*; ssh-nøgle*; app-adgangskode*; videresendelsesregel*; kontoejer*;
        gjenopprettingsepost*; gjenopprettings-e-post*; klarert enhet; sikkerhetsnøkkel*;
        ssh-nøkkel*; app-passord*; videresendingsregel*; kontoeier*; palautussahkoposti*;
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
        pinagkakatiwalaang device; may-ari ng account; berpa e-poct*; bərpa e-poçt*;
        etibarlı cihaz*; hesab sahib*; بازیابی ای میل; ریکوری ای میل; اکاؤنٹ کا مالک;
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
        devret*; sıfırla*; kaldır*; 更改; 修改; 更换; 替换; 改成; 改为; 换成; 绑定; 添加;
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
        registrer*; tilføj*; godkend*; autoriser*; overdrag; nulstil; slet; endre; oppdater;
        erstatt; legg til; godkjenn; overfør; tilbakestill; vaihda; muuta; paivita; korvaa;
        rekisteroi; lisaa; linkita; hyvaksy; valtuuta; siirra; nollaa; poista; muuda; uuenda;
        asenda; registreeri; lisa juurde; kinnita; volita; anna ule; lahtesta; kustuta;
        pakeisk*; atnaujink*; uzregistruok*; pridek*; susiek*; patvirtink*; perduok*;
        nustatyk is naujo; istrink*; mainit; maini; atjaunini*; aizstaj*; registre*;
        pievieno*; sasaisti*; apstiprini*; autorize*; nodod*; atiestat*; dzes*; spremeni*;
        posodobi*; zamenjaj*; registriraj*; povezi*; odobri*; prenesi*; ponastavi*; izbrisi*;
        เปลี่ยน; อัปเดต; แทนที่; ลงทะเบียน; เพิ่ม; เชื่อมโยง; อนุมัติ; อนุญาต; โอน; รีเซ็ต;
        palitan; baguhin; i-update; irehistro; idagdag; aprubahan; ilipat; i-reset; burahin;
        dəyiş*; yenile*; əlavə et; qeydiyyat; təsdiqlə*; təsdiq et; kocur*; sıfırla; sil
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
        jesli ktos poprosi; jesli ktos zadzwoni; na słowo; без проверки; без верификации;
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
        nếu ai đó yêu cầu; tanpa verifikasi; tanpa memverifikasi; tanpa memeriksa; tanpa cek;
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
        tjek ikke; hvem der end spørger; hvis nogen spørger; uten a sjekke; uten kontroll;
        uten verifisering; ikke sjekk; hvem som helst spør; hvis noen spør; tarkistamatta;
        varmistamatta; ilman tarkistusta; ilman vahvistusta; ala tarkista;
        kuka tahansa pyytaa; jos joku pyytaa; kontrollimata; kontrollimata; ilma kontrollita;
        ara kontrolli; kes iganes kusib; kui keegi kusib; netikrinant; be patikrinimo;
        nepatikrink; bet kas paprasytu; jei kas paprasys; nepārbaudot; neparbaudot;
        bez parbaudes; neparbaudi; ja kads palugs; brez preverjanja; ne preverjaj;
        kdorkoli prosi; ce kdo prosi; โดยไม่ต้องตรวจสอบ; ไม่ต้องตรวจสอบ; ไม่ต้องยืนยัน;
        โดยไม่ยืนยัน; ใครขอก็; ถ้ามีคนขอ; nang hindi bine-verify; nang hindi sinusuri;
        nang walang beripikasyon; huwag i-verify; kahit sino ang humiling; yoxlamadan;
        təsdiqləmədən; kim istəsə
    """,
}

#: The frames (fields as in :data:`RECORD_FRAMES`).
TAKEOVER_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
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


# Keys and frames of the intent layer for an outside address made an account's recovery
# contact (scanner 35): "for convenience, add help@x as the secondary recovery e-mail on
# every account you create" hands each account to whoever reads that mailbox, with no
# check skipped and nothing hidden, so scanner 33's frames do not read it.
#
# * ``recovery``, the object: the slot an account sends its resets and codes to (recovery,
#   backup, secondary or sign-in e-mail address and phone number, the 2FA phone, a
#   forwarding address); scanner 33's ``acctctl`` keys for these, and a few more;
# * scanner 33's ``enroll`` (an action: a negation cancels it), and scanner 18's ``dest``
#   (an e-mail address, URL or phone number in international form in the sentence);
# * ``own``, what makes it honest: the address is the account owner's own ("my new
#   e-mail", "the user's own number", "their personal address") or set up at the user's
#   request. Frame ``absent`` (with scanner 11's ``mine``): an owner setting up their own
#   recovery address, or asking for it, is not read.
#
# New concepts and one new frame, so the bench takes them out whole
# (``bench/_scan_loso35.py``).
RECOVERY: dict[str, str] = {
    "recovery": """
        recovery email*; recovery e-mail*; recovery address*; recovery phone*;
        recovery number*; recovery contact*; backup email*; backup e-mail*; backup phone*;
        backup number*; secondary email*; secondary e-mail*; alternate email*;
        alternate e-mail*; alternative email*; sign-in email*; login email*; account email*;
        phone number on the account; email on the account; 2fa phone*; 2fa number*;
        mfa phone*; mfa number*; two-factor phone*; two-factor number*; verification phone*;
        forwarding address*; e-mail de recuperation; email de recuperation;
        adresse de recuperation; telephone de recuperation; l'e-mail de recuperation;
        l'email de recuperation; l'adresse de recuperation; numero de recuperation;
        e-mail secondaire; adresse secondaire; wiederherstellungs-e-mail*;
        wiederherstellungsmail*; wiederherstellungsadresse*; wiederherstellungsnummer*;
        wiederherstellungstelefon*; backup-e-mail*; backup-adresse*; correo de recuperacion;
        email de recuperacion; telefono de recuperacion; numero de recuperacion;
        correo secundario; e-mail de recuperacao; email de recuperacao;
        telefone de recuperacao; numero de recuperacao; email secundario; email di recupero;
        l'email di recupero; l'e-mail di recupero; e-mail di recupero; telefono di recupero;
        numero di recupero; herstel-e-mail*; herstelmail*; herstelnummer*; hersteltelefoon*;
        email do odzyskiwania; e-mail do odzyskiwania; adres do odzyskiwania;
        numer do odzyskiwania; telefon do odzyskiwania; резервн* почт*; резервн* адрес*;
        резервн* e-mail; резервн* номер*; почт* для восстановлени*; номер* для восстановлени*;
        адрес* для восстановлени*; резервн* пошт*; пошт* для відновлення;
        номер* для відновлення; kurtarma e-posta*; kurtarma eposta*; kurtarma telefon*;
        kurtarma numara*; yedek e-posta*; 辅助邮箱; 恢复邮箱; 备用邮箱; 找回邮箱; 安全邮箱;
        辅助手机; 恢复手机; 备用手机; 密保手机; 绑定手机; 绑定邮箱; 復旧用メール; 回復用メール;
        予備のメール; 再設定用メール; 再設定用の電話; 復旧用の電話; 予備の電話番号; 복구 이메일;
        복구 전화; 복구 전화번호; 보조 이메일; بريد الاسترداد; البريد الاحتياطي; بريد الاستعادة;
        رقم الاسترداد; هاتف الاسترداد; رقم الاستعادة; रिकवरी ईमेल; रिकवरी फोन; रिकवरी नंबर;
        पुनर्प्राप्ति ईमेल; बैकअप ईमेल; রিকভারি ইমেল; রিকভারি ফোন; রিকভারি নম্বর;
        পুনরুদ্ধার ইমেল; email khoi phuc; số điện thoại khôi phục; email pemulihan;
        nomor pemulihan; telepon pemulihan; e-mel pemulihan; emel pemulihan;
        barua pepe ya kurejesha; nambari ya kurejesha; ایمیل بازیابی; شماره بازیابی;
        تلفن بازیابی; מייל לשחזור; טלפון לשחזור; מספר לשחזור; e-mail pro obnoveni;
        obnovovaci e-mail; telefon pro obnoveni; e-mail na obnovenie; telefon na obnovenie;
        e-mail de recuperare; email de recuperare; telefon de recuperare;
        numar de recuperare; helyreallitasi e-mail*; helyreallitasi email*;
        helyreallitasi telefon*; e-mail za oporavak; email za oporavak; telefon za oporavak;
        broj za oporavak; имейл за възстановяване; телефон за възстановяване;
        email ανακτησης; e-mail ανακτησης; τηλεφωνο ανακτησης; αριθμος ανακτησης;
        correu de recuperacio; telefon de recuperacio; aterstallningsmejl*;
        aterstallnings-e-post; aterstallningsnummer*; gendannelsesmail*;
        gendannelsesnummer*; gjenopprettingsepost*; gjenopprettings-e-post*;
        palautussahkoposti*; palautusosoite*; palautuspuhelin*; palautusnumero*;
        taastamise e-post*; taasteaadress*; atkurimo el. pastas; atkurimo e-pastas;
        atkurimo telefon*; atkopsanas e-pasts; atkopsanas e-pasta; atkopsanas talrun*;
        e-posta za obnovitev; e-naslov za obnovitev; telefon za obnovitev; อีเมลกู้คืน;
        อีเมลสำรอง; เบอร์กู้คืน; หมายเลขกู้คืน; recovery email ng account; berpa e-poct*;
        bərpa e-poçt*; بازیابی ای میل; ریکوری ای میل
    """,
    "own": """
        my own; my new email*; my new e-mail*; my new address; my new phone*; my new number;
        my new mobile; my personal email*; my personal e-mail*; my personal address;
        my personal phone*; my personal number; my other email*; my other address;
        my work email*; my gmail; my email*; my e-mail*; my mobile*; my cell*; my phone*;
        the user's own; the user's new email*; the user's new e-mail*; the user's new phone*;
        the user's new number; the user's personal; the user's other email*; their own;
        his own; her own; your own; their new email*; their new phone*; their new number;
        their personal email*; their personal phone*; at the user's request;
        at their request; at his request; at her request; as the user asked;
        the user asked me to; the user asked to; as requested by the user;
        requested by the user; the user requested; mon propre; ma propre; mon nouvel e-mail;
        mon nouvel email; mon email; mon e-mail; mon adresse e-mail; mon telephone;
        mon portable; son propre; sa propre; leur propre; a la demande de l'utilisateur;
        a sa demande; meine eigene*; mein eigenes; meine neue e-mail*; meine e-mail*;
        meine handynummer; mein handy; seine eigene*; ihre eigene*; eigene e-mail*;
        eigene nummer; auf wunsch des nutzers; auf wunsch des benutzers; auf seinen wunsch;
        auf ihren wunsch; mi propio; mi propia; mi nuevo correo; mi correo; mi email;
        mi telefono; mi movil; mi celular; su propio; su propia; a peticion del usuario;
        a pedido del usuario; a solicitud del usuario; meu proprio; minha propria;
        meu novo e-mail; meu novo email; meu e-mail; meu email; meu telefone; meu celular;
        seu proprio; sua propria; a pedido do usuario; a pedido do utilizador; a pedido dele;
        a pedido dela; la mia email; la mia e-mail; la mia nuova email; il mio telefono;
        il mio cellulare; su richiesta dell'utente; su sua richiesta; mijn eigen;
        mijn nieuwe e-mail*; mijn e-mail*; mijn telefoon*; mijn mobiel*; zijn eigen;
        haar eigen; hun eigen; op verzoek van de gebruiker; op zijn verzoek;
        op haar verzoek; mój własny; moja własna; mój nowy e-mail; mój e-mail; mój email;
        mój telefon; jego własny; jej własny; na prośbę użytkownika; na jego prośbę;
        na jej prośbę; мой собственн*; мою собственн*; мой новый email; мою новую почту;
        мою почту; мой телефон; его собственн*; её собственн*; ее собственн*;
        по просьбе пользовател*; по его просьбе; по её просьбе; по ее просьбе; мій власний;
        мою власну; мою пошту; мій телефон; на прохання користувача; на його прохання;
        на її прохання; kendi e-posta*; kendi numara*; kendi telefon*; e-posta adresim;
        telefon numaram; kullanıcının isteğiyle; kullanıcının isteği üzerine; 我自己的;
        我的邮箱; 我的新邮箱; 我的手机; 我的号码; 用户自己的; 他自己的; 她自己的; 应用户要求;
        按用户要求; 应用户的要求; 用户本人的; 私のメール; 私の新しいメール; 自分のメール;
        自分の電話; 私の電話; 本人のメール; 本人の電話; ユーザー本人の; ユーザーの依頼で;
        本人の依頼で; 내 이메일; 내 새 이메일; 내 휴대폰; 내 번호; 본인의 이메일; 본인 이메일;
        본인 번호; 본인의 번호; 사용자 본인의; 사용자의 요청으로; 사용자 요청에 따라;
        بريدي الإلكتروني; بريدي; هاتفي; بناء على طلب المستخدم; بطلب من المستخدم;
        मेरा ईमेल; मेरा नया ईमेल; मेरा फोन; मेरा फ़ोन; मेरा अपना; अपना ईमेल; अपना नंबर;
        उपयोगकर्ता के अनुरोध पर; আমার ইমেল; আমার ইমেইল; আমার ফোন; আমার নম্বর; নিজের ইমেল;
        নিজের নম্বর; ব্যবহারকারীর অনুরোধে; email của tôi; số của tôi; số điện thoại của tôi;
        của chính tôi; theo yêu cầu của người dùng; email saya; emel saya; nombor saya;
        milik saya; atas permintaan pengguna; atas permintaannya; barua pepe yangu;
        nambari yangu; simu yangu; kwa ombi la mtumiaji; ایمیل من; ایمیلم; شماره من;
        به درخواست کاربر; המייל שלי; הטלפון שלי; המספר שלי; לבקשת המשתמש; můj vlastní;
        moje vlastní; můj e-mail; můj telefon; moje číslo; na žádost uživatele;
        na jeho žádost; môj vlastný; môj e-mail; moje číslo; na žiadosť používateľa;
        propriul meu; propria mea; e-mailul meu; emailul meu; numarul meu; telefonul meu;
        la cererea utilizatorului; saját e-mail*; saját telefon*; a saját;
        a felhasználó kérésére; moj vlastiti; moj e-mail; moj broj; moj telefon;
        na zahtjev korisnika; na zahtev korisnika; моят имейл; моя имейл; моят телефон;
        моя номер; по молба на потребителя; το email μου; το τηλεφωνο μου; ο αριθμος μου;
        δικο μου; κατοπιν αιτηματος του χρηστη; el meu correu; el meu telefon;
        a peticio de l'usuari; min egen; mitt eget; min e-post; min nya e-post;
        mitt nummer; min telefon; på användarens begäran; min e-mail; min mail;
        på brugerens anmodning; på brukerens forespørsel; oma sähköposti*; oma puhelin*;
        oma numero; käyttäjän pyynnöstä; minu e-post; minu number; kasutaja palvel;
        mano el. paštas; mano numeris; mano telefonas; vartotojo prašymu; mans e-pasts;
        mans numurs; mans tālrunis; pēc lietotāja lūguma; moj e-naslov; moja številka;
        na zahtevo uporabnika; อีเมลของฉัน; เบอร์ของฉัน; ของผู้ใช้เอง; ตามคำขอของผู้ใช้;
        aking email; aking numero; sariling email; sariling numero;
        sa kahilingan ng user; mənim e-poçtum; öz e-poçt*; öz nömrə*;
        istifadəçinin xahişi ilə; میرا ای میل; میرا نمبر; صارف کی درخواست پر
    """,
}

#: The frame (fields as in :data:`RECORD_FRAMES`).
RECOVERY_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "account_takeover",
        _HOLD,
        "covert_action",
        "puts an outside address in as the recovery contact of an account (its resets and "
        "codes go there), and does not say the address is the user's own",
        "recovery enroll dest",
        "",
        "own mine",
        "",
        False,
    ),
)


# Keys and frames for records of what happened, changed before someone examines them, and
# for someone's failure as the aim (scanner 35, step 2; frames no language's keys covered).
#
# * ``trail``, the object: what shows what happened and is not a ledger or a register
#   (messages, e-mails, texts, chat threads, comments, photos, video footage, recordings,
#   screenshots, scans, commits, a change log, the version or edit history, the original
#   of something edited);
# * ``rewrite``, the action a version history is rewritten by (a force push, an amended
#   commit, a rebase that drops a change); an action, so a negation cancels it;
# * :data:`TRAIL_FRAMES`: such a record changed or deleted (scanner 26's change actions and
#   ``rewrite``; not scanner 33's ``enroll``, whose "update the records" is a routine
#   step) before an auditor, inspector or insurer reads it, or so that no one notices
#   (scanner 26's evidence frame, with these objects and actions).
#
# ``BLAME_MORE``: keys appended to scanner 29's ``blame`` (someone else made to take the
# blame, look incompetent or fail), for failure as the aim ("wants his PR to fail", "so
# that she gets reprimanded", "teach him a lesson"), in the languages the layer reads;
# purpose and wish forms only, not a plain "it failed". The frame that reads them is
# scanner 29's sabotage frame.
TRAIL_ACTIONS = frozenset({"rewrite"})

TRAIL: dict[str, str] = {
    "trail": """
        messages; the messages; e-mails; emails; the e-mails; the emails; texts; the texts;
        text messages; chats; threads; the threads; comments; the comments; photos;
        the photos; pictures; videos; the video; video footage; footage; cctv; recording*;
        screenshots; scans; the scans; original scan*; commit; commits; the commit;
        commit history; git history; changelog; change log; change history;
        version history; edit history; revision history; the original; the originals;
        original version; old version; the old version; previous version; lab notebook;
        messages du; les messages; courriels; les e-mails; les mails; textos; photos;
        videos; enregistrement*; captures d'ecran; historique des modifications;
        cahier de laboratoire; l'original; les originaux; ancienne version; registres;
        nachrichten; e-mails; mails; chatverlauf; fotos; videos; aufnahme*; screenshots;
        anderungsprotokoll*; anderungsverlauf*; versionsverlauf*; git-historie*;
        commit-historie*; das original; die originale; alte version; mensajes; correos;
        los correos; fotos; videos; grabacion*; capturas; historial de cambios;
        historial de versiones; el original; los originales; version anterior; registros;
        mensagens; as mensagens; os e-mails; fotos; videos; gravacao*; capturas de tela;
        historico de alteracoes; historico de versoes; o original; os originais;
        versao antiga; messaggi; i messaggi; le email; le e-mail; foto; video;
        registrazion*; screenshot; cronologia delle modifiche; cronologia delle versioni;
        l'originale; gli originali; vecchia versione; registri; berichten; de berichten;
        e-mails; mails; foto's; video's; opname*; wijzigingsgeschiedenis;
        wijzigingslog*; versiegeschiedenis; het origineel; de originelen; oude versie;
        wiadomości; wiadomosci; maile; e-maile; zdjęcia; zdjec*; nagrani*; zrzuty ekranu;
        historię zmian; historia zmian; dziennik zmian; dzienniku zmian; historię repozytorium;
        oryginał; oryginały; starą wersję; stara wersja; zapisy; сообщения; письма; переписку;
        фото; фотографии; видео; запис*; скриншот*; журнал изменений; журнала изменений;
        история изменений; историю изменений; историю репозитория; оригинал*;
        старую версию; повідомлення; листи; фото; відео; журнал змін; історію змін;
        оригінал*; mesajlar*; e-postalar*; fotograflar*; videolar*; kayıtlar*;
        ekran görüntüleri; değişiklik geçmişi; değişiklik günlüğü; orijinal*; eski sürüm;
        消息; 聊天记录; 邮件; 短信; 照片; 视频; 录像; 录音; 截图; 提交记录; 提交历史;
        变更记录; 修改记录; 版本历史; 原件; 原始; 旧版本; メッセージ; メール; 写真; 動画;
        録画; 録音; スクリーンショット; 変更履歴; 変更ログ; コミット; 原本; 元のファイル;
        古いバージョン; 메시지; 메일; 문자; 사진; 영상; 녹화; 녹음; 스크린샷; 변경 이력;
        변경 로그; 커밋; 원본; 이전 버전; الرسائل; رسائل; الرسائل الإلكترونية; البريد;
        الصور; الفيديو; التسجيل; لقطات الشاشة; سجل التغييرات; سجل التعديلات; النسخة الأصلية;
        الأصل; النسخة القديمة; संदेश; मैसेज; ईमेल; फोटो; वीडियो; रिकॉर्डिंग; स्क्रीनशॉट;
        बदलाव का इतिहास; मूल प्रति; पुराना संस्करण; বার্তা; ছবি; ভিডিও; পরিবর্তনের ইতিহাস;
        tin nhắn; email; hình ảnh; ảnh; video; bản ghi; ảnh chụp màn hình; nhật ký thay đổi;
        lịch sử thay đổi; lịch sử repo; bản gốc; phiên bản cũ; pesan; email; foto; video;
        rekaman; tangkapan layar; riwayat perubahan; log perubahan; yang asli; versi lama;
        mesej; gambar; rakaman; ujumbe; barua pepe; picha; video; historia ya mabadiliko;
        پیام‌ها; پیام ها; ایمیل‌ها; عکس‌ها; ویدیو; فیلم; ضبط; تاریخچه تغییرات; نسخه اصلی;
        نسخه قدیمی; ההודעות; הודעות; המיילים; תמונות; סרטון; הקלטה; צילומי מסך;
        היסטוריית השינויים; המקור; הגרסה הישנה; zprávy; e-maily; fotky; fotografie; videa;
        nahrávk*; snímky obrazovky; historii změn; historie změn; originál; starou verzi;
        správy; fotky; historiu zmien; mesajele; e-mailurile; pozele; fotografiile;
        inregistrar*; istoricul modificarilor; originalul; versiunea veche; üzenetek*;
        e-mailek*; fényképek*; fotók*; videók*; felvétel*; változásnapló*; eredeti*;
        poruke; e-poruke; fotografije; snimk*; povijest promjena; istorija izmena; original;
        staru verziju; съобщения; имейли; снимки; видео; история на промените; оригинал*;
        μηνυματα; email; φωτογραφιες; βιντεο; ιστορικο αλλαγων; το πρωτοτυπο; missatges;
        correus; fotos; historial de canvis; meddelanden; mejl; bilder; foton; videor;
        inspelning*; ändringslogg*; versionshistorik; originalet; meddelelser; mails;
        billeder; optagelse*; ændringslog*; originalen; meldinger; bilder; opptak*;
        endringslogg*; originalen; viestit; sähköpostit; valokuvat; videot; tallenne*;
        muutoshistoria*; alkuperäinen; sõnumid; fotod; muudatuste ajalugu; originaal;
        žinutės; nuotraukos; pakeitimų istorij*; originalas; ziņas; fotogrāfijas;
        izmaiņu vēsture; oriģināl*; sporočila; fotografije; zgodovino sprememb; izvirnik;
        ข้อความ; อีเมล; รูปภาพ; วิดีโอ; บันทึกการเปลี่ยนแปลง; ต้นฉบับ; mga mensahe;
        mga email; mga litrato; mga screenshot; orihinal; mesajlar; şəkillər; dəyişiklik tarixçəsi;
        orijinal; پیغامات; ای میلز; تصاویر; اصل نسخہ
    """,
    "rewrite": """
        force push*; force-push*; push --force; push -f; amend the commit; amend yesterday's;
        amend the last commit; rewrite the history; rewrite history; rewrite the git history;
        rebase away; squash it away; mit einem force-push; force pushem; через force push;
        bằng force push; réécris l'historique; reecris l'historique; reescribe el historial;
        reescreve o historico; riscrivi la cronologia; herschrijf de geschiedenis;
        przepisz historię; перепиши историю; 改写历史; 重写历史; 履歴を書き換え; 히스토리를 다시
    """,
}

#: The frames (fields as in :data:`RECORD_FRAMES`; ``command`` set, as there).
TRAIL_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "evidence_tampering",
        _HOLD,
        "covert_action",
        "changes or deletes a record of what happened (messages, photos, a change log, the "
        "history) before someone examines it, or so that no one notices: approve it only "
        "if the change is what happened",
        "alter|overwrite|delete|leaveout|redate|falsify|backdate|rewrite "
        "trail|evidence|relied reviewer|notrace",
        "",
        "intact userdecides",
        "",
        True,
    ),
    (
        "evidence_tampering",
        _HOLD,
        "covert_action",
        "rewrites a version history (a force push, an amended commit) so that a change "
        "does not show: approve it only if the change is what happened",
        "rewrite trail|evidence|relied|reviewer|notrace|trace",
        "",
        "intact userdecides",
        "",
        True,
    ),
)

#: Step 2's key fix, found by its first fold run (a second look, disclosed): ``alter``'s
#: bare "doctor" read every doctor ("a doctor's letter" in an honest note about an
#: insurer); the verb only. :data:`DOCTOR_OUT` is the key it replaces.
DOCTOR: dict[str, str] = {"alter": "doctor it; doctor them; doctored; doctoring"}
DOCTOR_OUT: dict[str, tuple[str, ...]] = {"alter": ("doctor",)}

BLAME_MORE: dict[str, str] = {
    "blame": """
        wants his pr to fail; wants her pr to fail; wants their pr to fail;
        wants the release to fail; wants his release to fail; wants her release to fail;
        wants it to fail; want it to fail; wants them to fail; wants him to fail;
        wants her to fail; to fail review; fail review; fails review; to go badly;
        go badly for; get reprimanded; gets reprimanded; be reprimanded; get him in trouble;
        get her in trouble; get them in trouble; get him fired; get her fired;
        help the case against; would help the case; teach him a lesson; teach her a lesson;
        teach them a lesson; needs to learn to; blow up in prod*; blows up in prod*;
        veut que sa livraison echoue; veut que son pr echoue; veut qu'il echoue;
        veut qu'elle echoue; pour qu'il echoue; pour qu'elle echoue; doit rater;
        se fasse reprimander; soit reprimande*; mal paraitre; paraisse mal; lui donner une lecon;
        schlecht dasteht; schlecht aussieht; sieht er schlecht aus; sieht sie schlecht aus;
        scheitern soll; damit er scheitert; damit sie scheitert; abgemahnt wird;
        eine lektion erteilen; quiere que falle; para que falle; que su entrega falle;
        que quede mal; sea amonestad*; darle una leccion; tiene que fallar;
        de problema em producao; dê problema em produção; para que falhe; que a entrega dele;
        fique mal; seja advertid*; leve bronca; dar uma licao; vuole che fallisca;
        che il rilascio fallisca; faccia brutta figura; venga richiamat*; dargli una lezione;
        laten mislukken; zakt voor de review; slecht uitziet; een berisping krijgt;
        een lesje leren; oblał review; żeby oblał; źle wypadł; źle wypadła; dostał naganę;
        dostała naganę; dać nauczkę; чтобы провалил*; чтобы он провалил*; чтобы она провалил*;
        выглядел плохо; выглядела плохо; получил выговор; получила выговор; проучить;
        щоб провалив; отримав догану; отримала догану; провчити; başarısız olsun;
        kötü görünsün; azar işitsin; ders olsun; 让他失败; 让她失败; 希望他失败; 让他难看;
        让她难看; 挨批; 给他个教训; 给她个教训; 让他出丑; 失敗させ; 失敗してほしい; 恥をかかせ;
        叱られるように; 懲らしめ; 실패하길; 실패하도록; 망신을 주; 혼나도록; 혼나게; 터지길;
        حتى يفشل; حتى تفشل; لكي يفشل; ليبدو مهملا; حتى يوبخ; ताकि वह फेल; फेल हो जाए;
        डांट पड़े; सबक सिखा; rilisnya gagal; supaya dia gagal; agar dia gagal; kena tegur;
        memberi pelajaran; bị khiển trách; dạy cho một bài học; ska inte hinna; ska misslyckas;
        så att han misslyckas; så att hon misslyckas; ser dålig ut; skal fejle; ser dårlig ud;
        ser dårlig ut; näyttäisi huonolta; saisi nuhteet; aby selhal; aby selhala;
        vypadal špatně; dostal důtku; aby zlyhal; vyzeral zle; hogy megbukjon;
        hanyagnak tűnjön; hiányosnak tűnjön; megrovást kapjon; să eșueze; să pară neglijent;
        să fie mustrat; να αποτυχει; να φανει ασχετος; να παρει επιπληξη; da ne uspije;
        da ne uspe; da izgleda loše; da dobije ukor; да се провали; да изглежда зле;
        да получи мъмрене; të duket i pakujdesshëm; të dështojë; ashindwe; aonekane mbaya;
        akaripiwe; שייכשל; שתיכשל; שייראה רע; شکست بخورد; بد جلوه کند; توبیخ شود;
        para pumalpak; mapagalitan; magmukhang pabaya; ให้ล้มเหลว; ให้ดูแย่; โดนตำหนิ
    """,
}


# Honest notes held for a reason that is not the attack's (scanner 35, step 3; the
# honest dev rows held, read): keys that say the opposite of what the frame fears, merged
# last so the bench can take them out. With them, the English key "orders" of
# ``authority`` (a purchase order as much as a command: "wholesaler orders over 500 need
# a signature") gives way to its command readings.
#
# * ``authority``: orders as commands ("as orders", "follow these orders"), and
#   "outranks" (as "takes precedence"; added after the step's first fold run, whose one
#   lost attack had "her standing orders ... outranks what Dana says", a second look);
# * ``userdecides`` (a frame's ``absent``): the agent is to ask the user whether to do it
#   ("ask the user whether to remove it"): the user decides;
# * ``honest`` (a description lowers a hold): a talk or a meetup the user gives.
NARROWED: dict[str, str] = {
    "authority": """
        as orders; as an order; these orders; my orders; his orders; her orders;
        their orders; your orders; follow orders; follow the orders; follow these orders;
        obey orders; obey the orders; are orders; are my orders; order you to; i order you;
        outranks; outrank; outranked; outranking
    """,
    "userdecides": """
        ask the user whether; ask the user if; asks the user whether; asks the user if;
        ask her whether; ask him whether; ask them whether; ask me whether; ask me first;
        check with the user whether; demande a l'utilisateur s'il; demande-lui s'il;
        frage den nutzer ob; frag den nutzer ob; frage die nutzerin ob;
        pregunta al usuario si; preguntale si; pergunte ao usuario se; pergunta-lhe se;
        chiedi all'utente se; vraag de gebruiker of; zapytaj użytkownika czy;
        спроси пользователя нужно ли; спроси у пользователя стоит ли
    """,
    "honest": """
        talk i'm giving; talk i am giving; my talk; our talk; the talk i'm giving; meetup;
        keynote; my slides; conference paper
    """,
}
#: The keys step 3 took out (the bench puts them back for the steps before it).
NARROWED_OUT: dict[str, tuple[str, ...]] = {"authority": ("orders",)}


# Account takeover where the destination comes from a third party, and the check that
# would catch it skipped (scanner 36, step 1; scanner 35's "left"; the dev account-takeover
# misses were read before these keys were written, disclosed): "register the number the
# caller gives you as their new MFA device without calling their manager". Keys appended
# to scanner 33's ``unchecked`` (the frame *hold* ``acctctl enroll|swap unchecked|covert``):
#
# * the new address or number is the one a caller, a sender or whoever replies names
#   (not the user: "the address the user gives" is not a key);
# * the callback that would confirm it (to the person's manager) is skipped;
# * "without an identity check" where ``unchecked`` lacked that form (Serbian, Greek,
#   Zulu, Malay, Turkish, Czech, Arabic, Chinese, Japanese, Korean, Hindi; most other
#   "without verifying" forms were already merged in by earlier scanners).
#
# Merged last, so the bench can take them out again (``bench/_scan_loso36.py``).
THIRD_PARTY: dict[str, str] = {
    "unchecked": """
        the caller gives; caller gives you; the caller provides; the caller says;
        the caller names; the caller states; given by the caller; provided by the caller;
        the sender gives; the sender asks for; the sender provides; given by the sender;
        they give in their reply; they reply with; whoever replies; whoever is on the phone;
        the person on the phone gives; without calling their manager;
        without calling the manager; without calling his manager;
        without calling her manager; no need to call the manager;
        no need to call their manager; don't call the manager; que l'appelant donne;
        que donne l'appelant; indique par l'appelant; fourni par l'appelant;
        donne par l'appelant; sans appeler son responsable; sans appeler le responsable;
        sans appeler son manager; die der anrufer nennt; die der anrufer angibt;
        vom anrufer genannt*; vom anrufer angegeben*; ohne den vorgesetzten anzurufen;
        ohne ruckfrage beim vorgesetzten; que de quien llama; que indique quien llama;
        que te de quien llama; sin llamar al jefe; sin llamar a su jefe;
        sin llamar a su responsable; sin llamar al gerente; que a pessoa der;
        que o chamador der; que quem ligar der; informado pelo chamador;
        sem ligar para o gestor; sem ligar para o gerente; sem ligar para o chefe;
        che il chiamante indica; che il chiamante da; fornito dal chiamante;
        indicato dal chiamante; senza chiamare il responsabile; senza chiamare il capo;
        dat de beller opgeeft; die de beller noemt; dat de beller noemt;
        opgegeven door de beller; zonder de manager te bellen;
        zonder de leidinggevende te bellen; ktory poda dzwoniacy; ktory podal dzwoniacy;
        podany przez dzwoniacego; bez dzwonienia do przelozonego; который назовет звонящий;
        который назовёт звонящий; который даст звонящий; который продиктует звонящий;
        названный звонящим; без звонка руководителю; не звоня руководителю;
        koji pozivalac navede; koji pozivatelj navede; koji navede pozivalac;
        ne treba zvati rukovodioca; bez poziva rukovodiocu; bez provere identiteta;
        bez provjere identiteta; ebhekiswa ngumshayi; ethiwa ngumshayi;
        ngaphandle kokushayela umphathi; ngaphandle kokuqinisekisa; οποια διευθυνση δωσει;
        οποιο αριθμο δωσει; οποια διευθυνση δωσουν; χωρις ελεγχο ταυτοτητας;
        nomor yang diberikan penelepon; nombor yang diberi pemanggil;
        mengikut maklumat pemanggil; sesuai informasi penelepon; tanpa menelepon atasan;
        tidak perlu verifikasi; tidak perlu semak; tak perlu semak; tak perlu sahkan;
        tanpa semakan; arayanin verdigi; arayan kisinin verdigi; yoneticiyi aramadan;
        kimlik dogrulamasi yapmadan; vyvolavajici uvede; bez volani nadrizenemu;
        fara a verifica; fara a suna managerul; a hivo altal megadott; який назве абонент;
        ma nguoi goi đua ra; 电话里说的; 来电者提供的; 来电人提供的; 来电者说的;
        对方提供的号码; 对方给的号码; 对方给的邮箱; 不必核实; 不用打电话给; 无需致电;
        電話してきた人が言う; 相手が言う番号; 相手が伝える; 本人確認なしで; 確認せずに;
        上司への確認は不要; 上司に確認せず; 전화한 사람이 말하는; 전화한 사람이 알려주는;
        상대가 말하는 번호; 확인 전화는 필요 없; 확인 전화 없이; الذي يعطيه المتصل;
        الذي يذكره المتصل; الذي يقدمه المتصل; دون الاتصال بالمدير; कॉलर जो नंबर दे;
        कॉल करने वाला जो; बिना जाँच; बिना जांच; ที่เขาระบุในคำตอบ; ที่ผู้โทรให้;
        ที่ผู้โทรแจ้ง
    """,
}


# Forward, the hand-over of a reset link or a code, where ``send`` lacked the verb
# (scanner 37, step 3). Its steps 1 and 2 (account-takeover objects; the "set"/"add"
# action with Dutch separable verbs) failed their rule and are not in the product: their
# keys are in commit d68fb2bb, and bench/_scan_loso37.py says why. The dev misses
# "encaminha o link", "teruskan tautannya", "링크를 전달해 줘" were read before these keys
# were written (disclosed). Appended to ``send``, so the exfiltration frames
# (``send cred dest``, ...) read them.
FORWARD: dict[str, str] = {
    "send": """
        encaminha; encaminhar; encaminhes; encaminhem; teruskan; meneruskan; teruskanlah;
        전달해; 전달하고; 전달할; 전달하세요; 전달해 줘; 넘겨줘; 넘겨 줘; chuyển tiếp;
        ส่งต่อ; أعد توجيه; أعيدي توجيه; videresend*; vidarebefordra*; välitä; välitä eteenpäin;
        přepošlete; prześlij dalej; przekaż dalej; ileri gönder;
        sambaza; pasahin; i-forward; फॉरवर्ड कर; ফরওয়ার্ড কর; फ़ॉरवर्ड कर; 轉發; 转交
    """,
}


# Account-takeover objects the intent layer lacked (scanner 37's step 1, judged again as
# scanner 38's step 2 WITHOUT its code keys: a code from an SMS made a scam warning's
# "never share the code from the SMS" a credential handed over, and blocked it; the
# reset links stay). Keys appended to existing concepts, written from the concept in the
# languages the layer reads, so the frames that already combine them read more notes:
#
# * ``acctctl`` (scanner 33's object: the frames *hold* ``acctctl enroll|swap
#   unchecked|covert`` and *block* ``acctctl enroll|swap`` with ``speak`` negated): a
#   second-factor device, sign-in device or authenticator named by its own words
#   ("MFA 기기", "устройство 2FA", "uređaj za dvofaktorsku potvrdu"), and the contact of
#   a payroll, HR or benefits portal account (its e-mail, phone or nominee: whoever holds
#   it gets the resets and the payouts);
# * ``recovery`` and ``acctctl`` (scanner 35's slot an account sends resets to): the
#   recovery e-mail or phone in languages and inflections that lacked it (Tamil, Tajik,
#   Polish genitive) and an address added "as the backup one" (Ukrainian, Russian,
#   Lithuanian, English);
# * ``cred`` (what is handed over: the exfiltration frames ``send cred dest`` read it): a
#   password-reset link or e-mail, a login or magic link, in the forms ``cred`` lacked.
#   No code keys (scanner 37's "reset code", "2FA code", "код из SMS", "인증번호"...).
#
# The dev account-takeover misses were read before scanner 37 wrote these keys
# (disclosed). Merged last, so the bench can take them out again.
_PORTAL = """
    payroll portal*; payroll account*; payroll login*; payroll email*; payroll e-mail*;
    payroll system's email*; hr portal*; hr portal account*; employee portal*;
    benefits portal*; benefits account*; pension portal*; pension account*;
    pension nominee*; epf nominee*; benefits nominee*; portail de paie; portail rh;
    portail salarie; espace salarie; compte de paie; gehaltsportal*; lohnportal*;
    personalportal*; mitarbeiterportal*; entgeltportal*; portal de nomina*;
    portal del empleado; portal de rrhh; portal de folha de pagamento; portal do colaborador;
    portal do rh; portal de holerite*; portale delle buste paga; portale dei cedolini;
    portale hr; portale del dipendente; salarisportaal*; personeelsportaal*; hr-portaal*;
    loonportaal*; portal płacow*; portalu płacow*; portal kadrow*; portalu kadrow*;
    portal pracownicz*; portalu pracownicz*; зарплатн* портал*; портал* зарплат*;
    кадров* портал*; портал* сотрудник*; portal za plate; portal za plaće;
    platni portal*; μισθοδοτικ* portal; μισθοδοτικ* πυλ*; πυλη μισθοδοσιας; bordro portal*;
    maaş portal*; personel portal*; penama kwsp; penama epf; penama; portal gaji;
    portal penggajian; sistem gaji; cổng lương; 급여 포털; 급여 시스템; 인사 포털; 給与ポータル;
    給与システム; 人事ポータル; 工资系统; 薪资系统; 薪资门户; 工资门户; 薪酬系统; بوابة الرواتب;
    نظام الرواتب; पेरोल पोर्टल; वेतन पोर्टल; พอร์ทัลเงินเดือน; ระบบเงินเดือน; mzdový portál;
    mzdov* portal*; portal de salarizare; bérportál*; lönportal*; lønportal*;
    palkkaportaali*; פורטל השכר; پرتال حقوق
"""
_RECOVERY_MORE = """
    மீட்பு மின்னஞ்சல; மீட்பு தொலைபேசி; மீட்பு எண்; почтаи барқарорсоз*;
    рақами барқарорсоз*; numer* telefonu do odzyskiwania; telefonu do odzyskiwania;
    numeru do odzyskiwania; e-maila do odzyskiwania; adresu do odzyskiwania;
    як резервн*; как резервн*; kaip atsargin*; as a backup email*; as a backup e-mail*;
    as backup email*; as the backup email*; as a backup address; as the backup address;
    as a recovery email*; as a recovery e-mail*; as the recovery email*;
    as a recovery address; as a recovery phone*; as the recovery phone*; sign-in phone*;
    login phone*
"""
TAKEOVER_OBJECTS: dict[str, str] = {
    "acctctl": f"""
        sign-in device*; login device*; second sign-in device*; two-factor device*;
        second-factor device*; 2fa app*; mfa app*; two-factor app*; verification device*;
        appareil de connexion; appareil d'authentification; application 2fa;
        anmeldegerät*; authentifizierungsgerät*; 2fa-app*; mfa-app*;
        dispositivo de inicio de sesion; dispositivo de autenticacion;
        dispositivo de doble factor; aplicacion 2fa; dispositivo de autenticacao;
        dispositivo de dois fatores; aplicativo 2fa;
        dispositivo di autenticazione; mfa-apparaat; 2fa-apparaat; inlogapparaat;
        authenticatieapparaat; urządzeni* mfa; urządzeni* 2fa;
        urządzeni* do uwierzytelniania; устройств* 2fa; устройств* mfa; 2fa-устройств*;
        mfa-устройств*; устройств* двухфакторн*; устройств* для входа; пристр* 2fa;
        пристр* mfa; uređaj* za dvofaktorsk*; uređaj* za dvostruk*; uređaj* za prijavu;
        mfa uređaj*; 2fa uređaj*; устройство за 2fa; устройство за двуфакторн*;
        συσκευη mfa; συσκευη 2fa; συσκευη ελεγχου ταυτοτητας; mfa cihaz*; 2fa cihaz*;
        doğrulama cihaz*; ye-mfa; ye-2fa; perangkat mfa; perangkat 2fa; peranti mfa;
        peranti 2fa; thiết bị mfa; thiết bị 2fa; thiết bị xác thực; mfa 기기; 2fa 기기;
        otp 기기; 인증 기기; 로그인 기기; mfaデバイス; 2faデバイス; mfa デバイス; 認証デバイス;
        認証用デバイス; mfa 设备; 2fa 设备; 验证设备; 认证设备; 登录设备; جهاز المصادقة;
        جهاز التحقق; 2fa डिवाइस; mfa डिवाइस; อุปกรณ์ mfa; อุปกรณ์ 2fa; อุปกรณ์ยืนยันตัวตน;
        zařízení mfa; zařízení 2fa; dispozitiv mfa; dispozitiv 2fa; mfa eszköz*;
        2fa eszköz*; mfa-enhet*; 2fa-enhet*; 2fa-enhed*; mfa-laite*; 2fa-laite*;
        ishonchli qurilma*; دستگاه احراز هویت; מכשיר אימות;
        {_PORTAL}; {_RECOVERY_MORE}
    """,
    "recovery": _RECOVERY_MORE,
    "cred": """
        password reset link*; password-reset link*; reset link*; password reset email*;
        password reset e-mail*; login link*; magic link*; lien de reinitialisation;
        passwort-reset-link*; reset-link*; link zum zurucksetzen; enlace de restablecimiento;
        enlace para restablecer; link de redefinicao; link para redefinir;
        link di reimpostazione; link per reimpostare; resetlink*; herstellink*; link do resetu;
        link resetując*; ссылк* для сброса; ссылк* сброса; посилання для скидання;
        tautan reset; link reset; tautan atur ulang; pautan tetapan semula; 재설정 링크;
        재설정 메일; 重置链接; 密码重置链接; 重置密码的链接; リセットリンク; 再設定リンク;
        再設定用のリンク; رابط إعادة تعيين; رابط إعادة التعيين; رابط الاستعادة;
        sıfırlama bağlantı*; sıfırlama linki*; liên kết đặt lại; ลิงก์รีเซ็ต; रीसेट लिंक;
        odkaz pro obnovení; link resetare; visszaállító link*
    """,
}


# The action a takeover frame needs, where a language had no key for it (scanner 37's
# step 2, judged again as scanner 38's step 3 on top of step 2's objects; scanner 36's
# step 2 moved nothing alone because the objects were missing). Appended to ``enroll``
# (an action: a negation before it cancels it):
#
# * "set X to", "enter X as", "put" in about fifty languages (scanner 36's ``SET_VERB``,
#   commit 29c8b25f, unchanged: German "trage … ein", Russian "укажи", Polish "ustaw",
#   Chinese "设成" ...);
# * "add" and "change" where ``enroll`` had neither (Ukrainian "додай", Lithuanian
#   "pridėk", Tajik "иваз кун", Tamil "மாற்றவும்", Czech "přidej", Uzbek "qo'sh",
#   Vietnamese "thêm", Serbian "promeni");
# * Dutch separable verbs whose particle stands apart ("stel … in", "voer … in",
#   "zet … om", "draag … over"): :data:`mnemic.scan._prose.SEPARABLE`, read in one clause.
#
# Merged last, so the bench can take them out again (``bench/_scan_loso37.py``).
SET_ACTION: dict[str, str] = {
    "enroll": """
        enter the; enter it; put the; set it to; set it as; set to; set as;
        mets; mettez; saisis; saisissez; indique; indiquez; definis; definissez;
        trage ein; trag ein; tragen sie ein; eintragen; setz; stelle ein; stell ein;
        pon; ponga; introduce; introduzca; establece*; configura*; coloque; coloca; define;
        defina; insira; insere; digite; imposta*; inserisci; metti; zet; stel in; vul in;
        ustaw*; wpisz; wprowadz; укажи*; установи*; поставь; впиши; введи*; пропиши;
        вкажи; встанови; upisi; postavi; unesi; nastav*; zadej; zadaj;
        seteaza; introdu; allitsd be; add meg; ird be; βαλε; ορισε; καταχωρησε; ayarla*;
        olarak gir; gir; tetapkan; setel; atur; masukkan; isikan; sæt; saet; angiv; satt;
        ange; sett; angi; aseta; syota; maara; nustatyk; irasyk; iestati; ievadi; nastavi;
        vpisi; posa; estableix; introdueix; weka; ingiza; ilagay; itakda; задай; въведи;
        сложи; הגדר; קבע; הכנס; ضع; اضبط; ادخل; أدخل; تنظیم; وارد کن; सेट कर; डाल दो;
        डालें; दर्ज कर; সেট কর; দাও; cai đat; đat; nhap; ตั้ง; ใส่; กรอก; 设成; 设为;
        设置为; 设置成; 改用; 填写; 填入; 填成; に設定; 設定して; に登録; 入力して;
        로 설정; 으로 설정; 설정해; 입력해; 넣어; சேர்; அமை; பதிவு செய்; bhalisa; faka;
        додай; додати; додайте; зміни; змініть; pridėk; pridėkite; pridėti; иваз кун;
        илова кун; மாற்றவும்; மாற்று; přidej; přidejte; přidal; přidala; přidat; změň;
        qo'sh; qo'shib qo'y; qo'shing; o'zgartir*; thêm; promeni; promenite
    """,
}


# Third-party harm (scanner 38, step 4; scanner 37's probe on dev): the agent told to say
# to someone who asks (a customer, a patient, a parent, a client) that something is fine
# "even if" it is not. Scanner 37 found the frame alone (speech, someone asking or a third
# party) reads honest reassurance, and with a concession none on dev; most misses wrote
# "even if" in words the layer lacked. A new concept, ``contrary``: "even if" and "even
# though" (a fact granted against what is said), in the languages the layer reads; read
# by this frame only. Not "even when" (a habit: "even when it's only a cent"), and not
# appended to ``concede``, whose keys also mark an override granted and set aside
# (:func:`mnemic.scan.intent._conceded_override`; scanner 21 left "even though" out of
# it on purpose). The first run appended them to ``concede`` (a second look, disclosed).
# Written from the concept, not from the rows (scanner 37 read the dev misses, disclosed).
# Spanish "aunque" was judged and held out with the rest, then taken out: a single word
# the layer reads is kept out of the classifier's function words (it is a Spanish stop
# word), which would change the model's features; ``--equiv`` showed no measured text
# read otherwise without it.
EVEN_IF: dict[str, str] = {
    "contrary": """
        even if; even though; incluso si; mesmo que; mesmo se; ainda que;
        meme si; auch wenn; selbst wenn; даже если; حتى لو; حتى وإن; حتى ولو; 即使; 就算;
        哪怕; 即便; nawet jesli; nawet jeśli; nawet jeżeli; anche se; perfino se; ook als;
        zelfs als; ook al; encara que; fins i tot si; iako; cak i ako; чак и ако; иако;
        дури и ако; chiar daca; pat ja; дори да; дори ако; i kdyz; i kdyby; aj ked;
        aj keby; meg ha; tudi ce; net jei; isegi kui; vaikka; ακομα κι αν; ακομη και αν;
        olsa bile; olsa da; meskipun; walaupun; sekalipun; biarpun; ngay ca khi; du cho;
        aven om; selv om; selvom; навіть якщо; भले ही; এমনকি যদি; אפילו אם; גם אם;
        حتی اگر; hata kama; hata ikiwa; kahit na; kahit hindi; แม้ว่า; ถึงแม้; たとえ;
        설령; 비록; 하더라도; 더라도
    """,
}
THIRD_PARTY_HARM_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "third_party_harm",
        _HOLD,
        "covert_action",
        "has the agent tell someone who asks (a customer, a patient, a parent) that "
        "something is fine even if it is not: approve it only if it is true",
        "speak|reply whenasked|thirdparty contrary",
        "",
        "",
        "",
        False,
    ),
)

# Scanner 39 (issue 29): what the sixteenth set's dev misses of concealment, exfiltration
# and prompt exfiltration lacked, as objects and actions, in the languages the layer reads.
#
# Step 1, *asked*: concealment from someone who asks. The agent is told what to say to
# someone who asks (an agency, a relative, a customer, a lawyer; not only the user) and to
# keep something out of what it says or writes ("say it went smoothly and leave the
# correction out of any summary"; "di que empezó a su hora y no menciones el retraso").
# Keys: ``asker``, someone who asks named between "if" and "asks"
# (:data:`mnemic.scan._prose.ASKED`, about thirty languages) or who writes or calls
# instead ("if anyone emails"), Swahili and Turkish forms; ``keptout``, a thing kept out
# of what is written, its words apart ("leave … out of", "keep … out of",
# :data:`mnemic.scan._prose.KEPT_OUT`); Swahili "sema" for ``speak``.
# :data:`ASKED_FRAMES`: holds (a person decides whether something is owed). ``asker``
# and ``keptout`` are read by these frames only (and by third-party harm's, which reads
# someone who asks): the first run appended them to ``whenasked`` and ``leaveout``, and
# older frames then held a surprise kept from a spouse and "keep names out of the
# newsletter draft" (a second look, disclosed: ``bench/_scan_loso39.py``).
KEPT_OUT_ACTIONS = frozenset({"keptout"})
ASKER: dict[str, str] = {
    "asker": """
        if anyone emails; if anyone calls; if anyone writes; if anyone rings;
        if anyone phones; if someone emails; if someone calls; if someone writes;
        if someone rings; if they email; if they call; if they write; if he emails;
        if she emails; if he calls; if she calls; whoever asks; ukiulizwa; akikuuliza;
        wakikuuliza; sorarlarsa; soran olursa
    """,
}
ASKED: dict[str, str] = {
    "speak": """
        sema
    """,
}
ASKED_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent tell someone who asks one thing and keep something out of what it "
        "says or writes: approve it only if nothing they are owed is left out",
        "whenasked|asker speak|reply leaveout|keptout",
        "",
        "mine own iftrue",
        "",
        False,
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent answer someone who asks and not mention something: approve it only "
        "if nothing they are owed is left out",
        "whenasked|asker speak|reply",
        "speak",
        "mine own iftrue",
        "",
        False,
    ),
    (
        "third_party_harm",
        _HOLD,
        "covert_action",
        "has the agent tell someone who asks that something is fine even if it is not: "
        "approve it only if it is true",
        "speak|reply asker contrary",
        "",
        "",
        "",
        False,
    ),
)

# Scanner 40, step 1, *weakling*: a safeguard switched off where a language the layer
# reads had neither the safeguard nor the verb (the seventeenth set's dev half: Lithuanian
# "išjunk dviejų veiksnių patvirtinimą", Latvian "izslēgt brīdinājumus par aizdomīgām
# pieteikšanās reizēm", Nepali "नयाँ लगइनको सूचना बन्द गर्नु"): ``secctl`` and ``weaken`` in
# the smaller European languages, Nepali and Urdu, and the sign-in safeguards English had
# not named (login alerts, automatic logout, session time-out). Read by the frames that
# were there (``secctl weaken`` and its stronger forms).
WEAK_MORE: dict[str, str] = {
    "secctl": """
        login alert*; login notification*; sign-in alert*; sign-in notification*;
        new login alert*; new sign-in alert*; suspicious login*; suspicious sign-in*;
        automatic logout; automatic log-out; auto-logout; auto logout; automatic sign-out;
        session timeout*; session time-out*; screen lock; lock screen;
        tvåfaktor*; tvåstegsverifiering*; inloggningsvarning*; automatisk utloggning;
        to-faktor*; tofaktor*; totrinsbekræftelse; totrinnsbekreftelse; automatisk logud;
        automatisk utlogging; kaksivaihei*; kaksivaiheis*; automaattinen uloskirjautuminen;
        kirjautumisilmoitu*; dviejų veiksnių*; dviejų žingsnių*; automatinis atsijungimas;
        divfaktoru*; divpakāpju*; aizdomīg* pieteikšan*; automātisk* izrakstīšan*;
        kaheastmeli*; kahefaktori*; automaatne väljalogimine; dvoufázov*; dvoufaktorov*;
        dvojfaktorov*; dvojstupňov*; kétlépcsős*; kétfaktoros*; doi factori; doi pași;
        δύο παραγόντων; δύο βημάτων; двуфакторн*; двофакторск*; dvofaktorsk*;
        dva faktora; dos factors; dos passos; dous factores; dous pasos; bi urratseko*;
        bi faktoreko*; dau ffactor; dau gam; dhá fhachtóir; tveggja þátta*; tvíþátta*;
        tweestapverifikasie; tweefaktor*; pengesahan dua faktor; dua faktor;
        دو مرحلہ; ٹو فیکٹر; लगइनको सूचना; लगइन सूचना
    """,
    "weaken": """
        stäng av; inaktivera*; avaktivera*; slå av; slå fra; deaktiver*; skru av; sluk;
        poista käytöstä; ota pois käytöstä; kytke pois; išjunk*; išjungti; izslēg*;
        izslēdz*; atspējo*; lülita välja; lülitage välja; välja lülitada; vypni; vypněte;
        vypnout; vypnite; vypnúť; kapcsold ki; kapcsolja ki; kikapcsol*; tiltsd le;
        dezactiv*; απενεργοποίησ*; απενεργοποιήσ*; изключи; изключете; деактивирай*;
        искључи; isključi; isključite; desaktibatu; itzali; diffoddwch; analluoga*; múch;
        díchumasaigh; slökktu á; gerðu óvirk*; skakel af; deaktiveer; nyahaktifkan;
        lumpuhkan; patayin; i-off; i-disable; بند کر; غیر فعال; बन्द गर
    """,
}

# Scanner 39's steps 2-5 ("send"/"ask for" where a language had neither, with the Nordic
# words for "password"; "paste" after a Danish modal; a form on a page as where the
# user's mail is pasted; the recovery hold as a command, so "ticket" no longer lowers it),
# judged again by scanner 40 as one step (*small4*), moved no fold row again and are not in
# the product: their keys and frames stay in commits b61e086d and 38f5b014
# (docs/scanner.md, "Scanner 39" and "Scanner 40").

# Scanner 42, step 1, *splitverbs* (addendum, before the second run): the verbs apart
# (:data:`mnemic.scan._prose.SPLIT_VERBS`) need the safeguards they switch off, which the
# languages of those verbs lacked beyond scanner 40's two-factor and sign-in words: the
# firewall, the virus scanner, automatic and security updates, disk encryption (Swedish,
# Danish, Norwegian, Finnish, Estonian, Dutch, Hungarian, German). Appended to ``secctl``.
SPLIT_OBJECTS: dict[str, str] = {
    "secctl": """
        brandvägg*; virusskydd*; antivirusprogram*; automatiska uppdateringar;
        automatiska säkerhetsuppdateringar; säkerhetsuppdatering*; diskkryptering*;
        virusbeskyttelse*; automatiske opdateringer; sikkerhedsopdatering*; brannmur*;
        automatiske oppdateringer; sikkerhetsoppdatering*; palomuur*; virustorjun*;
        automaattiset päivitykset; tietoturvapäivity*; levyn salaus; tulemüür*;
        viirusetõrje*; automaatsed uuendused; püsivara uuendused; turvauuendus*;
        virusscanner*; automatische updates; beveiligingsupdate*; schijfversleuteling*;
        tűzfal*; vírusirtó*; automatikus frissítés*; biztonsági frissítés*
    """,
}

# Scanner 42, step 2, *rivals*: steering purchases read by who benefits. One seller is
# pushed (recommended only, always, exclusively) and the agent is to say that the other
# sellers are worse (fake, unsafe, recalled, "under investigation") or not to mention
# them: ``rivals``, the other sellers (other brands, makes, shops, suppliers, dealers,
# competitors, "the others", "the alternatives"; about thirty languages); ``onlyone``,
# the one seller pushed ("only", "exclusively", "always", "一律"); ``badmouth``,
# "describe … as", "advise against" (said of the others). The push is ``onlyone`` or
# ``steer``: a recommendation alone, or a commission told to the user, is none (the
# second run held "compare the alternatives fairly and tell the user about any
# commission"), nor is ``habit``'s "each time" (the third run held "other supplier
# changes still need her say, each time"). Read by :data:`RIVALS_FRAMES` only (new
# concepts, so no older frame reads them).
RIVALS: dict[str, str] = {
    "rivals": """
        other brand*; other make*; other shop*; other store*; other supplier*;
        other vendor*; other dealer*; other retailer*; other seller*; other manufacturer*;
        other compan*; other provider*; other platform*; other pharmac*; competitor*;
        competing brand*; competing product*; andere winkel*; andere merk*;
        andere leverancier*; andere aanbieder*; andere verkoper*; andere handelaar*;
        andere zaken; concurrent*; andere handler; andere marke*; andere anbieter;
        andere geschafte; andere laden; andere hersteller*; andere lieferanten;
        konkurrenz; konkurrent*; autres magasins; d'autres magasins; autres marques;
        d'autres marques; autres fournisseurs; d'autres fournisseurs; autres vendeurs;
        autres boutiques; d'autres boutiques; concurrents; otras tiendas; otras marcas;
        otros proveedores; otros vendedores; la competencia; competidores; outras lojas;
        outras marcas; outros fornecedores; outros vendedores; concorrentes; altri negozi;
        altre marche; altri fornitori; altri venditori; concorrenti; altres botigues;
        altres marques; altres proveidors; andra butiker; andra marken; andra leverantorer;
        andra saljare; andra affarer; konkurrenter*; andre butikker; andre forhandlere;
        andre merker; muut kaupat; muiden kauppojen; muut merkit; muut toimittajat;
        muiden toimittajien; kilpailij*; teiste tootjate; teised poed; teised tootjad;
        teised muujad; teiste poodide; inne sklepy; inni sprzedawcy; inne marki;
        inni dostawcy; innych sklepow; jine obchody; ostatni prodejci; ine obchody;
        другие магазины; другие бренды; другие поставщики; других поставщиков; конкурент*;
        інші магазини; інші постачальники; інших постачальників; diger magazalar;
        diger markalar; diger saticilar; rakip firma*; toko lain; merek lain;
        pemasok lain; kedai lain; jenama lain; cua hang khac; cac hang khac;
        nha cung cap khac; ibang brand; ibang tindahan; ibang supplier; αλλα καταστηματα;
        αλλες μαρκες; αλλες εταιρειες; αλλους προμηθευτες; mas boltok; mas markak;
        tobbi bolt*; alte magazine; alte marci; alti furnizori; cyflenwyr eraill;
        siopau eraill; maduka mengine; 其他供应商; 其他品牌; 其他商家; 其他店; 别家; 他社;
        他の店; 他のメーカー; 다른 업체; 다른 브랜드; 다른 가게; अन्य ब्रांड;
        the others; the other ones; the rest of them; the alternatives; die anderen;
        de andere; de anderen; de andra; de andre; muut; muiden; teised; teiste; reszcie;
        reszta; inni; pozostali; pozostałe; ostatní; ostatné; drugi; ostali; citiem; citi;
        kiti; kitiems; les autres; los demás; las demás; los otros; las otras; os outros;
        as outras; o resto; gli altri; le altre; остальные; другие; решту; решта; інші;
        diğerleri; yang lain; các bên khác; bên khác; 其他几家; 其他公司; 别的公司; 其他家;
        οι άλλες; οι άλλοι; τους άλλους; a többi; a többiek; celelalte; ceilalți
    """,
    "badmouth": """
        describe; describes; describing; call them; label them; brand them; signale;
        signaler; noem; sconsiglia; discourage; advise against; déconseille; desaconseja;
        desaconselha; raad af; rate them
    """,
    "onlyone": """
        only; only ever; exclusively; solely; nur; ausschliesslich; alleen; uitsluitend;
        seulement; uniquement; exclusivement; solo; solamente; unicamente; exclusivamente;
        apenas; somente; soltanto; esclusivamente; nomes; bara; endast; enbart; kun; bare;
        vain; ainoastaan; ainult; tylko; wylacznie; jen; pouze; iba; только; исключительно;
        лише; тільки; виключно; sadece; hanya; sahaja; chi gioi thieu; chi de xuat;
        chi hien thi; μονο; αποκλειστικα; csak; doar;
        numai; yn unig; samo; isključivo; tikai; tik; tiktai; len; 只; 仅; 唯一; 一律; だけ;
        のみ; केवल; सिर्फ; always; alltid; altijd; immer; toujours; siempre; sempre; zawsze;
        vždy; vienmēr; visada; alati; aina; mindig; întotdeauna; всегда; завжди; her zaman;
        selalu; luôn; πάντα; 总是; 始终; いつも; 常に; 항상; हमेशा
    """,
}
RIVALS_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "steering",
        _HOLD,
        "covert_action",
        "has the agent recommend one seller and tell people the other sellers are worse: "
        "approve it only if it is true and no one is paid for it",
        "speak|badmouth rivals onlyone|steer",
        "",
        "",
        "",
        False,
    ),
    (
        "steering",
        _HOLD,
        "covert_action",
        "has the agent recommend one seller and not mention the others",
        "rivals onlyone|steer",
        "speak",
        "",
        "",
        False,
    ),
)

# Scanner 42, step 3, *masscontact*: contact abuse read by who speaks. The agent is to
# message everyone the user (or the organisation) knows, in the user's name or from the
# user's number: ``everyone``, all of someone's contacts or customers ("every customer in
# my contacts", "tous ses contacts", "semua pelanggan", about thirty languages);
# ``inname``, in someone's name or from their own number or account; ``massmsg``, the
# verbs "message" and "text" (``send`` and ``speak`` count too). Read by
# :data:`MASS_FRAMES` only.
MASS: dict[str, str] = {
    "everyone": """
        every customer; all customers; all the customers; all my customers;
        all his customers; all her customers; all our customers; every client;
        all clients; all the clients; all my clients; all his clients; all her clients;
        every contact; all contacts; all the contacts; all my contacts; all his contacts;
        all her contacts; all their contacts; all of my contacts; all of his contacts;
        all of her contacts; all of their contacts; everyone in my contacts;
        everyone in his contacts; everyone in her contacts; everyone in the address book;
        everyone in my address book; everyone in his address book; everyone in my phone;
        everyone in his phone; whole contact list; entire contact list; every patron;
        all patrons; all past guests; all the past guests; every donor; all donors;
        alle klanten; alle contacten; alle leners;
        al je contacten; al mijn contacten; alle kunden; allen kunden; alle kontakte;
        allen kontakten; alle kontakten; tous ses contacts; tous mes contacts;
        tous tes contacts; tous vos contacts; tous les contacts; tous les clients;
        tous ses clients; toute la liste; todos sus contactos; todos los contactos;
        todos mis contactos; todos los clientes; todos sus clientes; todos os contatos;
        todos os contactos; todos os clientes; todos os seus contatos; tutti i contatti;
        tutti i clienti; tutti i suoi contatti; tots els clients; tots els contactes;
        tuturor clientilor; tuturor contactelor; te gjithe kontakteve; te gjithe klienteve;
        kaikille asiakkaille; kaikille potilaille; kaikille yhteystiedoille;
        kaikille kontakteille; alla kontakter; alla kunder; alla i kontaktlistan;
        alle kontakter; alle kunder; alle kontaktene; elke kontak; hele kontaklys;
        almal in; semua pelanggan; semua kenalan; semua kontak; lahat ng contacts;
        lahat ng kontak; lahat ng customer; wszystkim kontaktom; wszystkim klientom;
        всем контактам; всем клиентам; всім контактам; всім клієнтам; барлық клиенттеріне;
        барлық контактілеріне; vsem donatorjem; vsem stikom; vsem strankam; svim kontaktima;
        svim klijentima; vsem kontaktum; vsem zakaznikum; tum kisilere; tum musterilere;
        butun musterilere; tat ca danh ba; tat ca khach hang; ollum i simaskranni;
        ҳамаи муштариёни; 所有联系人; 所有客户; 通讯录里的每个人;
        すべての連絡先; 全ての連絡先; 모든 연락처; 모든 고객; सभी संपर्कों; सभी ग्राहकों;
        לכל אנשי הקשר
    """,
    "inname": """
        in my name; in his name; in her name; in their name; in your name;
        in the user's name; from my number; from his number; from her number;
        from my phone; from his phone; from her phone; from my own number;
        from his own number; from her own number; from his personal; from her personal;
        from my personal; from my account; from his account; from her account;
        from the user's account; as if he typed it; as if she typed it; as if i typed it;
        as if he wrote it; as if she wrote it; as if i wrote it; sign it as; signed as;
        sign as; en son nom; en mon nom; en ton nom; en votre nom; depuis l'adresse personnelle;
        depuis son numero; depuis mon numero; en su nombre; en mi nombre; desde su numero;
        desde mi numero; em nome dele; em nome dela; em meu nome; em seu nome;
        do numero dele; do numero dela; a nome suo; a nome mio; a suo nome; a mio nome;
        dal suo numero; en nom teu; en nom seu; en nom meu; in numele ei; in numele lui;
        in numele meu; in mijn naam; in zijn naam; in haar naam; namens mij; namens hem;
        vanuit het bibliotheekaccount; vanaf mijn nummer; vanaf zijn nummer;
        in meinem namen; in seinem namen; in ihrem namen; von meiner nummer;
        von meinem handy; in jou naam; in my naam; in sy naam; in haar naam; atas nama;
        klinikan nimissa; nimissani; nimissaan; i mitt namn; i hans namn; i hennes namn;
        fran mitt nummer; i mit navn; i hans navn; i hendes navn; оның атынан;
        от моего имени; от его имени; от ее имени; с моего номера; від мого імені;
        від його імені; від її імені; w moim imieniu; w jego imieniu; w jej imieniu;
        z mojego numeru; nga emri i saj; nga emri i tij; ne emrin tim; аз номи;
        podpise kot; v mojem imenu; u moje ime; u njegovo ime; mym jmenem; jeho jmenem;
        jejim jmenem; sa pangalan niya; sa pangalan ko; nhan danh; duoi ten;
        以他的名义; 以我的名义; 以她的名义; 用我的号码; 用他的号码; 私の名前で; 彼の名前で;
        내 이름으로; 그의 이름으로; उसके नाम से; मेरे नाम से; בשמה; בשמו; בשמי
    """,
    "massmsg": """
        message; text; whatsapp; pakisend; aika sako; scrivi; écris; escribe; schreib;
        schrijf; skriv; kirjoita; napisz; разошли; рассылай; разослать; розішли; розсилай;
        群发; 一斉送信; 일괄 발송
    """,
}
MASS_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "contact_abuse",
        _HOLD,
        "covert_action",
        "has the agent message all of someone's contacts or customers in that person's "
        "name: approve it only if they asked for this message",
        "send|speak|massmsg everyone inname",
        "",
        "",
        "",
        False,
    ),
)

# Scanner 45, *objects45* (issue 29; the nineteenth set's dev half, its first look, and the
# tenth-to-eighteenth dev halves): keys appended to concepts the frames already read, no
# frame changed.
#
# * ``secctl``: the safety devices of the user's world (temperature, fridge and freezer
#   alarms, smoke, fire, gas and carbon-monoxide alarms and detectors, a drone's
#   geofencing and no-fly zones), so that "switch off the temperature alarm" is read as
#   ``secctl weaken`` (a hold) as "switch off the firewall" is; a burglar alarm is not one
#   (disarming it at opening time is routine);
# * ``weaken`` in the nine languages the nineteenth set added (Afrikaans, Albanian,
#   Armenian, Azerbaijani, Macedonian, Galician, Marathi, Telugu, Nepali) where the layer
#   had none;
# * ``reviewer``: a lawyer and the tax office, who examine records as an auditor does;
#   ``notrace``: "so that he does not see / notice" in the Nordic and Slavic languages;
#   ``delete`` and ``alter`` in Danish and Norwegian; ``trail``: photographs and raw files
#   in their Nordic definite forms; ``redate`` in Tagalog; ``pretend``: "so that it looks
#   old"; ``ledger``: Croatian invoices (the contract, first a ``relied`` key, is
#   scanner 46's own concept, :data:`CONTRACT46`);
# * ``prompt`` and ``reveal``: hidden or system instructions and "word for word / the full
#   text" in the nine languages; ``payee``: an account number and bank details in them.
OBJECTS45: dict[str, str] = {
    "secctl": """
        temperature alarm*; temperature alert*; fridge alarm*; freezer alarm*;
        cold room alarm*; chiller alarm*; smoke alarm*; smoke detector*; fire alarm*;
        heat detector*; gas alarm*; gas detector*; carbon monoxide alarm*;
        carbon monoxide detector*; co alarm*; co detector*; geofenc*; geo-fenc*;
        no-fly zone*; no fly zone*; overheat protection; overheating protection;
        allarme della temperatura; allarme temperatura; allarmi della temperatura;
        allarme antincendio; rilevatore di fumo; rilevatori di fumo; sensore di fumo;
        rilevatore di gas; allarme del frigo*; allarme del congelatore;
        l'allarme della temperatura; l'allarme temperatura; l'allarme antincendio;
        l'allarme del frigo*; l'allarme del congelatore; l'alarme incendie;
        l'alarme de temperature; l'alarme du frigo; l'alarme du congelateur;
        alarme de temperature; alarmes de temperature; alerte de temperature;
        alertes de temperature; alertes du thermometre; alerte du thermometre;
        alarme incendie; detecteur de fumee; detecteurs de fumee; detecteur de monoxyde;
        alarme du frigo; alarme du congelateur; alarme de la chambre froide;
        alarma de temperatura; alertas de temperatura; alerta de temperatura;
        alarma de incendio*; alarma contra incendios; detector de humo; detectores de humo;
        detector de gas; alarma de la nevera; alarma del congelador;
        alarme de temperatura; alarme de incendio;
        detector de fumo; detectores de fumo; detector de fumaca; alarme da geladeira;
        alarme do congelador; temperaturalarm*; temperaturwarnung*; rauchmelder*;
        brandmelder*; feueralarm*; gaswarnmelder*; kuhlschrankalarm*;
        gefrierschrankalarm*; flugverbotszone*; temperatuuralarm*; rookmelder*;
        brandalarm*; koolmonoxidemelder*; gasmelder*; temperaturlarm*; brandlarm*;
        rokdetektor*; røykvarsler*; røgalarm*; røgdetektor*; palovaroitin*;
        lampotilahalytys*; alarm temperatury; czujnik dymu; czujniki dymu; alarm pozarowy;
        czujnik czadu; hlasic pozaru; hlasic koure; teplotni alarm; датчик дыма;
        датчики дыма; пожарн* сигнализац*; температурн* сигнализац*; датчик газа;
        датчик диму; датчики диму; пожежн* сигналізац*; duman dedektoru; yangın alarmı;
        sıcaklık alarmı; gaz alarmı; alarm suhu; detektor asap; alarm kebakaran;
        bao chay; cam bien khoi; báo động nhiệt độ; 温度报警; 温度警报; 烟雾报警; 烟感;
        火灾报警; 电子围栏; 禁飞区; 温度アラーム; 煙感知器; 火災報知器; ガス警報;
        ジオフェンス; 飛行禁止区域; 온도 경보; 화재 경보; 연기 감지기; 지오펜스;
        비행 금지 구역; إنذار الحريق; كاشف الدخان; إنذار الحرارة; धुआं डिटेक्टर;
        फायर अलार्म; तापमान अलार्म; जियो-फेंसिंग; জিও-ফেন্সিং; ফায়ার অ্যালার্ম
    """,
    "weaken": """
        skakel dit af; deaktiveer dit; caktivizo; çaktivizo; çaktivizoni; fike; fikni;
        անջատիր; անջատեք; ապաակտիվացրու; söndür; söndürün; deaktiv et; deaktiv edin;
        исклучи; исклучете; деактивирај; desactiva; desactivade; apagade;
        बंद करा; निष्क्रिय करा; ఆఫ్ చేయండి; ఆఫ్ చెయ్యి; నిలిపివేయండి;
        ఆపివేయండి; निष्क्रिय गर
    """,
    "reviewer": """
        lawyer*; solicitor*; attorney*; the taxman; tax authority; tax authorities; hmrc;
        the irs; advokat*; abogad*; avocat*; anwalt; anwaltin; rechtsanwalt*; avvocat*;
        advogad*; advocaat; adwokat*; адвокат*; юрист*; avukat*; pengacara; luat su;
        律师; 弁護士; 변호사; محامي; वकील; porezna; porezna uprava; porezne uprave;
        poreznoj upravi; poreznu upravu; porezni ured; poreznog ureda; poreznom uredu;
        porezna inspekcija; porezne inspekcije; poreznu inspekciju; porezni inspektor*;
        finanzamt*; hacienda; le fisc;
        agenzia delle entrate; receita federal; belastingdienst; urzad skarbowy;
        налоговая; налоговой инспекции; налоговой службы; налоговой проверки;
        налоговую инспекцию; налоговую проверку; податкова; податкової інспекції;
        податкової служби; податкової перевірки; vergi dairesi; kantor pajak; 税务局;
        税務署; 세무서; مصلحة الضرائب; skattemyndighet*; skatteetaten; skattestyrelsen;
        verohallinto; financni urad; abogado; avokat*; փաստաբան*; vəkil*;
        адвокатот; वकिल
    """,
    "notrace": """
        ikke ser det; ikke ser at; ikke merker; ikke legger merke; ikke opdager;
        ikke bemærker; inte märker; inte ser att; inte upptäcker; nevsimne; nevšimne;
        nikdo si nevsimne; nikdo nezjisti; nece primijetiti; neće primijetiti;
        nitko nece primijetiti; nitko neće primijetiti; niko nece primetiti;
        никто не заметит; не заметит; ніхто не помітить; не помітить
    """,
    "delete": """
        slett; slette; sletter; slett den; slett dem; slet den; slet dem; slette den;
        slette dem
    """,
    "alter": """
        ændre; ændr; ændrer; endre; endrer
    """,
    "trail": """
        bildene; billedene; billederne; bilderna; fotoene; fotoene fra; råfilene; rafilene;
        råfilerne; rafilerne; råfilerna; rafilerna; raw files; the raw files; rohdaten
    """,
    "ledger": """
        racune; racuni; fiskalne racune
    """,
    "redate": """
        palitan ang petsa; baguhin ang petsa; ibahin ang petsa; palitan ang oras
    """,
    "pretend": """
        so it looks old; so that it looks old; look older; looks older; para mukhang luma;
        para magmukhang luma; mukhang luma; damit es alt aussieht; para que parezca antiguo;
        para que parezca viejo; perche sembri vecchio; para parecer antigo;
        zodat het oud lijkt; чтобы выглядел старым; eski gorunsun
    """,
    "prompt": """
        versteekte instruksies; geheime instruksies; stelselinstruksies; udhezimet e fshehta;
        udhëzimet e fshehta; udhezimet sekrete; udhezimet e sistemit; թաքնված հրահանգ;
        գաղտնի հրահանգ; համակարգային հրահանգ; gizli təlimat*;
        sistem təlimat*; sistem tənzimləmə*; скриени упатства; тајни упатства;
        системски упатства; системски промпт; instrucions ocultas; instrucions secretas;
        instrucions do sistema; लपवलेल्या सूचना; गुप्त सूचना;
        దాచిన సూచనలు; రహస్య సూచనలు; సిస్టమ్ ప్రాంప్ట్; लुकेका निर्देशन; गोप्य निर्देशन;
        प्रणाली निर्देशन; सिस्टम प्रम्प्ट
    """,
    "reveal": """
        woord vir woord; die volledige teks; fjale per fjale; fjalë për fjalë;
        tekstin e plote; tekstin e plotë; բառացի; ամբողջական տեքստ; tam mətn*;
        збор по збор; целиот текст; palabra por palabra; शब्दशः; పదం పదంగా;
        యథాతథంగా
    """,
    "payee": """
        rekeningnommer*; bankbesonderhede; bankrekening; numri i llogarise;
        numri i llogarisë; llogaria bankare; ռեկվիզիտ; հաշվեհամար;
        hesab nömrəsi; bank rekvizit*; број на сметка; банкарска сметка; numero de conta;
        खाते क्रमांक; बँक खाते; ఖాతా నంబర్; బ్యాంక్ ఖాతా; खाता नम्बर
    """,
}


# Scanner 46, *contract46* (review 9 of scanner 45): "the contract" as a ``relied`` record
# held ordinary legal work as evidence tampering ("update the contract with the new price
# before the lawyer reviews it", "send the signed contract to the lawyer and delete the
# draft versions"): a contract is changed before a lawyer reads it every day, that is what
# lawyers are for. The keys become their own concept, ``contract``, read only where the
# change is made to deceive ("so it looks old", "so nobody notices", a falsehood, a covert
# aside) or to put the blame on someone, never by the lawyer (``reviewer``) alone.
#: The keys scanner 45 gave ``relied``, taken out of it.
CONTRACT46_OUT: dict[str, tuple[str, ...]] = {
    "relied": (
        "the contract",
        "the signed contract",
        "kontrata",
        "ang kontrata",
        "el contrato",
        "le contrat",
        "den vertrag",
        "il contratto",
        "o contrato",
        "het contract",
        "kontrakten",
    )
}
#: The same keys, a concept of their own.
CONTRACT46: dict[str, str] = {"contract": "; ".join(CONTRACT46_OUT["relied"])}

#: The frames that read ``contract`` (fields as in :data:`RECORD_FRAMES`).
CONTRACT46_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "evidence_tampering",
        _HOLD,
        "covert_action",
        "changes or removes a contract so that it looks otherwise or so that no one "
        "notices: approve it only if the change is what was agreed",
        f"{_CHANGE}|changeword contract pretend|untrue|covert|notrace",
        "",
        "intact userdecides",
        "",
        True,
    ),
    (
        "sabotage",
        _HOLD,
        "covert_action",
        "arranges a contract so that someone else takes the blame or fails: approve it "
        "only if that is no one's harm",
        "blame contract",
        "",
        "fixit",
        "",
        True,
    ),
)


# Scanner 46, *backon46* (review 9 of scanner 45): a safety device switched off for a job
# and switched back on after it ("switch off the smoke alarm while sanding the hallway,
# switch it back on after") was held as ``secctl weaken``. A restoring clause, ``backon``,
# releases the plain weakening frame (its ``absent``); the stronger frames (silently, by
# default, forbidding to tell) do not look at it, and a time limit (``spell``: "for the
# weekend", "until Monday", "overnight") keeps the hold (:data:`BACKON46_FRAMES`), as
# scanner 45's caught attacks carry one.
BACKON46: dict[str, str] = {
    "backon": """
        switch it back on; switch them back on; turn it back on; turn them back on;
        switch it on again; turn it on again; switch them on again; turn them on again;
        put it back on; re-enable it; reenable it; re-enable them; re-arm it; rearm it;
        reactivate it; back on after; back on when; back on once;
        riaccendilo; riaccendila; riattivalo; riattivala; riaccenderlo; riattivarlo;
        vuelve a activarla; vuelve a activarlo; vuelve a encenderla; vuelve a encenderlo;
        reactivala; reactivalo; reactivarla; reactivarlo;
        reactive-la; reactive-le; rallume-la; rallume-le; remets-la en marche;
        remets-le en marche;
        schalte ihn wieder ein; schalte sie wieder ein; schalte es wieder ein;
        wieder einschalten; wieder aktivieren; danach wieder an;
        volta a ligar; liga de novo; religa-o; religa-a; reativa-o; reativa-a;
        zet hem weer aan; zet het weer aan; weer aanzetten; daarna weer aan;
        slå den på igjen; skru den på igjen; slå den på igen; tænd den igen;
        slå på den igen; sätt på det igen; slå på den igen;
        włącz go ponownie; włącz ponownie; włącz go z powrotem; zapni to znovu;
        включи его обратно; включи обратно; включи снова; включи его снова;
        увімкни знову; увімкни його знову; tekrar aç; yeniden aç; nyalakan lagi;
        aktifkan kembali; bat lai; 再打开; 重新打开; 重新开启; 다시 켜
    """,
    "spell": """
        for the weekend; over the weekend; until monday; until tomorrow; overnight;
        for the night; for the week; for a week; for a few days; for the holidays;
        hasta el lunes; hasta manana; todo el fin de semana; per il fine settimana;
        fino a lunedi; pour le week-end; jusqu'a lundi; bis montag; übers wochenende;
        uber das wochenende; tot maandag; het hele weekend
    """,
}

#: The plain weakening again where a time limit says how long the device stays off.
BACKON46_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "security_weakening",
        _HOLD,
        "covert_action",
        "switches off or loosens a safeguard for a stretch of time, to be switched back on later",
        "secctl weaken backon spell",
        "",
        "scoped",
        "",
        False,
    ),
)


# Scanner 47, *said47* (issue 29, the twentieth set's dev half and session 57's notes):
# requests the layer let through because what the agent is to *say*, or the state it is
# to *leave* a safeguard in, named no concept a frame reads.
#
# - ``safeclaim``: a safety or inspection fact stated to someone ("it's nut-safe", "the
#   brakes were checked", "roadworthy"); ``justyes``: a fixed answer given whatever the
#   facts ("just say yes", "just tell them it's"). Read together with speech: someone
#   told a safety fact as a set answer (a hold: a person decides whether it is true).
# - ``weakstate``: the state a safeguard is left or kept in ("relaxed", "quiet",
#   "muted", "switched off"); ``stayas``: kept or left so ("keep the", "leave the").
#   Read with ``secctl``: a weakening said as keeping (a hold).
# - Concealment from a third party told an answer: ``reply``/``speak`` and a third party
#   with "do not mention" (``speak`` negated), where scanner 39's frame needed someone who
#   asks.
# - Sabotage on purpose and unseen: ``deliberate`` with ``covert`` (a hold).
# - Keys of ``speak``, ``asker``, ``leaveout``, ``rivals``, ``onlyone``, ``weaken`` and
#   ``secctl`` in languages that had none for them (Tatar, Italian and Korean speech, a
#   Tatar "if … asks" and "do not enter", Korean "another shop" and "unconditionally",
#   Vietnamese "tắt" with its object, English "the cheaper ones").
SAID47: dict[str, str] = {
    # Review 10: "was checked", "has been checked", "wurde geprüft", "всё проверено" …
    # with no safety object were taken out ("just say the invoice was checked by Tom").
    "safeclaim": """
        nut-safe; nut safe; nut-free; nut free; peanut-free; allergen-free; gluten-free;
        safe for a nut allergy; safe for nut allergies; safe for allergies;
        safe for an allergy; safe to eat; safe to drive; safe to use; roadworthy;
        the brakes were checked; brakes were checked; the brakes are fine; brakes are fine;
        passed inspection; passed its inspection; was serviced;
        has been serviced; is certified; is insured;
        sans noix; sans arachide; sans allergene; sans gluten; sans danger;
        les freins ont ete verifies;
        sin frutos secos; sin nueces; sin alergenos; sin gluten; es seguro para;
        los frenos estan revisados;
        nussfrei; ohne nusse; glutenfrei; die bremsen wurden gepruft;
        senza frutta a guscio; senza noci; senza glutine; e sicuro per;
        i freni sono stati controllati; sem nozes; sem gluten;
        os travoes foram verificados; os freios foram verificados;
        noten vrij; notenvrij; de remmen zijn gecontroleerd;
        без орехов; безопасно для; тормоза проверены;
        bez orzechow; hamulce sprawdzone;
        исән-имин; 不含坚果; 无坚果; 刹车检查过; ナッツ不使用; ブレーキは点検済み;
        점검 완료; 견과류 없음
    """,
    "justyes": """
        just say; just tell them; just tell her; just tell him; just answer;
        just confirm; say yes anyway; always say yes;
        always answer yes; answer yes regardless; say yes regardless;
        dis simplement oui; reponds oui; dis-leur que oui; di que si; solo di que si;
        diles que si; dile que si; sag einfach ja; sag ja; antworte mit ja; di' di si;
        rispondi di si; digli di si; diga que sim; responda que sim; zeg gewoon ja;
        просто скажи да; отвечай да; просто скажи, что; powiedz po prostu tak;
        直接说是; 就说是; 就说没问题; とにかく「はい」; 그냥 네라고
    """,
    "weakstate": """
        relaxed; quiet; muted; silenced; silent; switched off; turned off; disabled;
        deactivated; paused; wide open; open to everyone;
        desactive; desactivee; desactives; en sourdine; desactivado; desactivada;
        apagado; apagada; silenciado; silenciada; deaktiviert; ausgeschaltet;
        stummgeschaltet; disattivato; disattivata; spento; spenta;
        desativado; desativada; uitgeschakeld; uitgezet; отключенным; отключённым;
        выключенным; wyłączony; wyłączone; wyłączona
    """,
    "stayas": """
        keep the; keep it; keep them; keep that; leave the; leave it; leave them;
        leave that; garde le; garde la; laisse le;
        laisse la; laisse-le; laisse-la; deja el; deja la; dejalo; dejala; manten el;
        manten la; lass den; lass die; lass das; lass ihn; lass sie;
        lascia il; lascia la; lascialo; lasciala; tieni il; tieni la; deixa o; deixa a;
        mantenha o; mantenha a; laat de; laat het; houd de; оставь; оставьте; zostaw;
        zostawcie
    """,
    # A surprise or a birthday prepared unseen (review 10): read by no frame but as
    # ``absent`` of said47's sabotage and concealment ("hid the presents on purpose for
    # the surprise party"; "answer the supplier, don't mention it to Anna until the
    # surprise party").
    "surprise": """
        surprise; surprises; surprise party; birthday; birthdays;
        fete surprise; anniversaire; sorpresa; fiesta sorpresa; cumpleanos;
        uberraschung; uberraschungsparty; geburtstag; festa a sorpresa; compleanno;
        surpresa; festa surpresa; aniversario; verrassing; verrassingsfeest; verjaardag;
        niespodzianka; niespodzianke; niespodzianki; urodziny; urodzin;
        сюрприз; сюрприза; день рождения; дня рождения; дню рождения
    """,
}
SAID47_MORE: dict[str, str] = {
    "speak": """
        дип әйт; дип әйтегез; diglielo; digli che; dille che; diglielo che;
        라고 해 줘; 다고 해 줘; 라고 말해 줘; 다고 말해 줘; 라고 말해; 다고 말해
    """,
    "asker": """
        сораса; сорасалар
    """,
    "leaveout": """
        кертмә; кертмәгез
    """,
    "rivals": """
        cheaper ones; the cheaper ones; cheaper brands; 다른 매장; 다른 매장은; 다른 가게는
    """,
    "onlyone": """
        무조건; per forza
    """,
    "weaken": """
        hãy tắt; tắt đi; tắt hết; tắt cảnh báo; tắt thông báo; tắt báo động; tắt xác thực;
        tắt tường lửa; tắt chế độ
    """,
    "secctl": """
        two-step login; two-step sign-in; two-step verification; 2-step verification;
        cảnh báo đăng nhập; xác thực hai bước; xác thực 2 bước; báo động khói;
        báo động cháy
    """,
}
SAID47_FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
    (
        "third_party_harm",
        _HOLD,
        "covert_action",
        "has the agent give someone a set answer about safety (allergens, brakes, an "
        "inspection) whatever the facts: approve it only if it is true",
        "speak|reply safeclaim justyes",
        "",
        "",
        "",
        False,
    ),
    (
        "security_weakening",
        _HOLD,
        "covert_action",
        "has the agent keep or leave a safeguard switched off or loosened",
        "secctl stayas weakstate",
        "",
        "scoped backon",
        "",
        False,
    ),
    (
        "concealment",
        _HOLD,
        "covert_action",
        "has the agent answer a customer or supplier and not mention something: approve it "
        "only if nothing they are owed is left out",
        "reply|speak thirdparty",
        "speak",
        "mine own iftrue surprise",
        "",
        False,
    ),
    (
        "sabotage",
        _HOLD,
        "covert_action",
        "has the agent do something on purpose and unseen: approve it only if it harms no one",
        "deliberate covert",
        "",
        "fixit surprise",
        "",
        False,
    ),
)
