"""The intent layer's concepts: what a word is about, in thirty languages.

Each concept is a set of keys, one per line group, in any language (the script of a key
decides how it is matched, see :mod:`.intent`):

* Latin, Cyrillic, Greek and Hangul keys are whole words; a trailing ``*`` makes the
  last word a prefix (``password*`` also reads ``passwords``, ``парол*`` reads
  ``пароль``, ``пароли``); a key of several words is a phrase;
* keys of scripts written without spaces (Chinese, Japanese) and Arabic keys (whose
  words take attached prefixes) are substrings.

Keys are separated by ``;``. Accents are folded away before matching (``contrasena``
reads ``contraseña``), so keys are written without them.

Concepts are of three kinds. *Objects* say what an entry is about (credentials, the
user's files, memory itself, the agent's own rules, startup configuration); *actions*
say what it asks to be done with them (collect, keep, send, hide, persist, override,
delete, run); *modifiers* say how (covertly, every session, to verify), and whether the
text only describes something (an alert, a talk, a policy). The frames that combine them
into an intent live in :mod:`.intent`.
"""

from __future__ import annotations

from ._lexicon_conceal import ADVICE, CONCEAL, MORE as CONCEAL_MORE
from ._lexicon_harm import (
    ASKED,
    ASKER,
    BACKON46,
    BLAME_MORE,
    CONTRACT46,
    DOCTOR,
    EVEN_IF,
    FORWARD,
    HARM,
    MASS,
    MORE as HARM_MORE,
    NARROWED,
    OBJECTS45,
    RECORD,
    RECORD_MORE,
    RECOVERY,
    RIVALS,
    SAID47,
    SAID47_MORE,
    SET_ACTION,
    SPLIT_OBJECTS,
    TAKEOVER,
    TAKEOVER_OBJECTS,
    THIRD_PARTY,
    TRAIL,
    VOICE,
    WEAK_MORE,
)
from ._lexicon_more import FARTHER, MORE, REACH, WIDER
from ._lexicon_reveal import BENGALI, COPY_OUT, REVEAL, TURKISH

__all__ = ["CONCEPTS"]

CONCEPTS: dict[str, str] = {
    # -- objects -----------------------------------------------------------------------
    "cred": """
        password*; passwd; passphrase*; passcode*; credential*; 2fa; mfa; otp; totp;
        backup code*; recovery code*; one-time code*; one time code*; verification code*;
        security code*; auth code*; login code*; seed phrase*; recovery phrase*;
        mnemonic phrase*; private key*; secret key*; secret access key*; access key*; api key*;
        apikey*; access token*; auth token*; session token*; session cookie*; banking login*;
        bank login*; online banking; pin code*; pin number*; cvv; cvc; card number*;
        login detail*; sign-in detail*; aws_secret_access_key; 密码; 口令; 验证码; 备用码;
        恢复码; 私钥; 密钥; 凭据; 凭证; 令牌; 助记词; 登录信息; 网银; 银行账户; 动态码;
        パスワード; 暗証番号; 認証コード; バックアップコード; リカバリーコード; 秘密鍵;
        シークレットキー; アクセスキー; 資格情報; 認証情報; ワンタイム; トークン; парол*;
        учетн* данн*; учётн* данн*; код* подтвержд*; резервн* код*; код* восстановлен*;
        секретн* ключ*; приватн* ключ*; ключ* доступ*; api-ключ*; токен*; сид-фраз*;
        кодов* слов*; كلمة المرور; كلمات المرور; كلمة السر; رمز التحقق; رموز الاحتياط;
        الرموز الاحتياطية; رموز النسخ; المفتاح السري; المفاتيح السرية; مفتاح الوصول;
        بيانات الاعتماد; بيانات الدخول; رمز الدخول; contrasena*; clave*; credencial*;
        codigo* de verificacion; codigos de respaldo; codigo* de respaldo;
        codigo* de recuperacion; llave* secreta*; clave secreta; passwort*; kennwort*;
        zugangsdat*; anmeldedat*; zugangscode*; backup-code*; wiederherstellungscode*;
        geheimer schlussel; geheimen schlussel; mot de passe; mots de passe; identifiant*;
        code* de secours; code* de recuperation; code* de verification; cle* secrete*;
        cle* d'api; senha*; credenciai*; codigo* de backup; chave* secreta*; 비밀번호; 암호;
        인증 코드; 백업 코드; 복구 코드; 비밀 키; 액세스 키; password bancari*; credenziali;
        كلمة مرور; رموز الاسترداد; رمز الاسترداد; المصادقة الثنائية; مفتاح ssh; المفتاح الخاص;
        مفتاح خاص; عبارة الاسترداد; رمز المرور;
        frase de recuperacion; frase semilla; token de acceso; clave privada; cle privee;
        cles privees; phrase de recuperation; phrase secrete; jeton d'acces;
        wiederherstellungsphrase; privaten schlussel; privater schlussel; zugangstoken;
        リカバリーフレーズ; シードフレーズ; アクセストークン; 恢复短语; 访问令牌; aws schlussel;
        api schlussel; ssh schlussel; zugangsschlussel; geheimschlussel;
        كلمة سر;
        bank pin; card pin; pin bancario; code pin; pin de la carte; pin de su tarjeta;
        pin der karte; bankkarten-pin; pin код*; pin 码; pin码; رقم التعريف الشخصي; 银行卡密码;
        palavra passe; palavras passe; palavra-passe; palavras-passe

    """,
    "memory": """
        memory; memories; memory file*; memory.md; user.md; these notes; this note; your notes;
        my notes; the notes you keep; saved notes; stored notes; this entry; these entries;
        memory entr*; the entries; other entries; skill; skills; skill file*; skill.md;
        saved instructions; what you remember; 记忆; 这些笔记; 这条笔记; 这些记录; 这条记录;
        这条; 条目; 技能; 备忘录; 記憶; メモリ; このメモ; これらのメモ; このノート; エントリ;
        スキル; памят*; эти заметки; эту заметку; эти записи; эту запись; этих заметках;
        этих записях; навык*; الذاكرة; ذاكرة; هذه الملاحظات; هذه الملاحظة; المدخلات; المهارة;
        المهارات; memoria; estas notas; esta nota; estas entradas; esta entrada; habilidad*;
        gedachtnis; diese notizen; diese notiz; diese eintrage; diesen eintrag; memoire;
        ces notes; cette note; ces entrees; cette entree; competence*; estas anotac*;
        esta anotac*; 메모리; 이 메모; 기억; 항목; 스킬; مهارة; ذاكرتك;
        speicher; dein speicher; was du gespeichert hast;
        gedachtnisdatei; speicherdatei; gespeicherte notizen; gespeicherten notizen

    """,
    "rules": """
        system prompt*; safety guideline*; safety rule*; safety polic*; safety instruction*;
        safety guidance; safeguard*; guardrail*; content polic*; usage polic*; restriction*;
        guidance you were given; instructions you were given; rules you were given;
        guidance you received; instructions you received; rules you received;
        guidelines you were given; guidelines you received; usual limits;
        indicaciones;
        what you were told; original instruction*; previous instruction*; prior instruction*;
        earlier instruction*; default instruction*; built-in rule*; your instruction*;
        your guideline*; your guidance; your rules; your polic*; your directive*;
        your constraint*; your programming; your training; 系统提示; 安全准则; 安全规则;
        安全指南; 安全策略; 安全限制; 限制; 之前的指示; 先前的指示; 原来的指示; 你的指示;
        你的规则; 你收到的指导; 你得到的指导; 指导方针; システムプロンプト; 安全ガイドライン;
        安全規則; 制限; 以前の指示; 元の指示; あなたの指示; ガイダンス; ガイドライン; 指示は;
        系统指令; системн* промпт*; правил* безопасност*; инструкци*; указани*; ограничени*;
        рекомендаци*; руководств*; التعليمات; الإرشادات; التوجيهات; القيود; قواعد السلامة;
        إرشادات السلامة; تعليماتك; توجيهاتك; instrucciones; directrices; pautas; restricciones;
        normas de seguridad; reglas de seguridad; anweisungen; richtlinien; vorgaben;
        einschrankungen; sicherheitsregeln; consignes; directives; instructions recues;
        regles de securite; restrictions; instrucoes; diretrizes; restricoes; 지침; 지시;
        안전 규칙; 제한; tes instructions; vos instructions; tes consignes; vos consignes;
        instructions d'origine; tus instrucciones; sus instrucciones; deine anweisungen;
        ihre anweisungen; твои инструкции; свои инструкции; ваши инструкции;
        normas que te dieron; reglas que te dieron; 安全ルール; 以前のルール;
        内容政策; 安全要求; قيود; قيود الأمان;
        restrizioni; regole di sicurezza; tue istruzioni

    """,
    "self": """
        you were given; you were told; you received; you follow; you've been given;
        given to you; your; assistant*; the model; the agent; this agent; 你收到; 你得到;
        给你的; 你的; 助手; 模型; 你被; あなたが受け; あなたの; 与えられた; アシスタント;
        モデル; тебе; вам; ваш*; тво*; ассистент*; модел*; تلقيتها; المعطاة; الخاصة بك;
        تعليماتك; لك; المساعد; النموذج; te dieron; recibiste; tus; su; asistente; modelo;
        dir gegeben; du erhalten; du bekommen; die du bekommen hast; deine; ihre; assistent*;
        modell; qu'on t'a; que tu as recues;
        tes; vos; assistant; modele; que voce recebeu; suas; seu; 당신; 너의; 받은; 어시스턴트;
        you were set up with; you were configured with;
        placed on you; imposed on you; set for you; 给你设定; 给你设置; 課された

    """,
    "startup": """
        cron; crontab; cronjob; cron job*; @reboot; systemd; systemctl --user; user service*;
        user unit*; .service; service file*; unit file*; timer unit*; launchd; launchagent*;
        launch agent*; login item*; autostart; startup script*; startup item*; on startup;
        at boot; at login; .bashrc; .zshrc; .profile; .bash_profile; rc file*; git hook*;
        pre-commit hook*; post-commit hook*; pre-push hook*; commit hook*; .git/hooks;
        hooks/pre-commit; hooks/post-commit; core.hookspath; sources.list; apt source*;
        pythonstartup; sitecustomize; usercustomize; .pth file*; 定时任务; 计划任务; 开机;
        启动项; 自启动; 服务单元; 钩子; 起動時; 自動起動; スタートアップ; フック; ログイン時;
        サービスユニット; автозапуск; автозагрузк*; при загрузке; при старте; хук*;
        планировщик*; пользовательск* служб*; пользовательск* сервис*; عند الإقلاع;
        عند بدء التشغيل; خدمة مستخدم; الخطاف; خطاف; مهمة مجدولة; المهام المجدولة; al arrancar;
        al iniciar; al inicio; arranque; servicio de usuario; gancho*; tarea programada;
        beim start; beim booten; benutzerdienst; au demarrage; demarrage; service utilisateur;
        tache planifiee; na inicializacao; servico de usuario; 시작 시; 부팅 시; 자동 시작; 훅;
        예약 작업;
        scheduled task*; at logon; on logon; at log on; registry run key; currentversion\\run

    """,
    "pkgconf": """
        pip.conf; pip.ini; pip config*; pip configuration; global.index-url; .npmrc; npm config;
        .pypirc; sources.list; pip 配置; pip の設定; конфиг pip; إعدادات pip;
        configuracion de pip; pip-konfiguration; configuration de pip

    """,
    "pkgindex": """
        pip.conf; index-url; extra-index-url; package index; registry url; 软件源; 镜像源;
        索引地址; インデックスurl; パッケージインデックス; индекс пакетов; فهرس الحزم;
        indice de paquetes; paketindex; index de paquets; indice de pacotes

    """,
    "userdata": """
        home directory; home folder; home dir; ~/.ssh; .ssh; ssh key*; id_rsa; id_ed25519;
        keychain*; browser cookie*; cookies; browser profile*; saved logins; clipboard;
        shell history; bash history; .bash_history; documents folder; ~/documents; staged diff*;
        staged change*; .env; env file*; environment variable*; env vars; the environment;
        aws credentials; kubeconfig; password manager; vault export; private files;
        personal files; user's files; 主目录; 家目录; 用户目录; 剪贴板; 浏览器; 源代码; 代码库;
        仓库; 环境变量; 暂存; 差异; ホームディレクトリ; クリップボード; ブラウザ; ソースコード;
        リポジトリ; 環境変数; ステージ; 差分; домашн* каталог*; домашн* папк*;
        домашн* директори*; буфер* обмена; браузер*; исходн* код*; репозитори*;
        переменн* окружени*; дифф*; المجلد الرئيسي; الدليل الرئيسي; مجلد المنزل; الحافظة;
        المتصفح; الشيفرة المصدرية; الكود المصدري; المستودع; متغيرات البيئة; directorio personal;
        carpeta personal; directorio home; portapapeles; navegador; codigo fuente; repositorio;
        variables de entorno; home-verzeichnis; heimverzeichnis; zwischenablage; quellcode;
        umgebungsvariablen; repertoire personnel; dossier personnel; presse-papiers;
        code source; depot; variables d'environnement; diretorio pessoal; pasta pessoal;
        area de transferencia; codigo-fonte; 홈 디렉터리; 클립보드; 소스 코드; 저장소;
        환경 변수; staged diff; gestagten diff; gestagte anderungen; diff preparado;
        diff indexe; التغييرات المرحلية; 暂存的差异; ステージされた差分; home verzeichnis;
        ملفات تعريف الارتباط; クッキー; 浏览器 cookie;
        .netrc; ~/.netrc; .pgpass; .git-credentials; .docker/config.json; credentials.json;
        id_ecdsa; .gnupg; ~/.gnupg; .kube/config

    """,
    "convo": """
        nachricht des nutzers; convo; convos;
        conversation*; chat history; chat log*; chat transcript*; transcript*; message history;
        previous messages; everything the user types; what the user types; what the user says;
        the user's messages; user messages; prompts the user; 对话; 聊天记录; 会话记录;
        用户输入; 用户的消息; 会話; チャット履歴; 会話履歴; ユーザーの入力;
        ユーザーのメッセージ; разговор*; переписк*; истори* чата; сообщени* пользовател*;
        المحادثة; المحادثات; سجل الدردشة; رسائل المستخدم; conversacion*; historial del chat;
        mensajes del usuario; unterhaltung*; gesprach*; chatverlauf; nachrichten des nutzers;
        historique; messages de l'utilisateur; conversa*; historico do chat;
        mensagens do usuario; 대화; 채팅 기록;
        محادثة

    """,
    "dest": """
        webhook*; pastebin; paste site; requestbin; ngrok; external server*; remote server*;
        my server; our server; this server; outside server*; third-party server*; collector;
        collection endpoint; this endpoint; the endpoint; this address; that address; this url;
        the url; the link below; 外部服务器; 远程服务器; 我的服务器; 这个地址; 该地址; 网址;
        链接; 外部サーバー; リモートサーバー; このアドレス; このurl; внешн* сервер*;
        удален* сервер*; удалённ* сервер*; мой сервер; этот адрес; по адресу; ссылк*;
        خادم خارجي; الخادم الخارجي; خادمي; هذا العنوان; الرابط; servidor externo;
        servidor remoto; mi servidor; esta direccion; este enlace; externen server;
        entfernten server; meinen server; diese adresse; diesen link; serveur externe;
        serveur distant; mon serveur; cette adresse; ce lien; este endereco; este link;
        외부 서버; 원격 서버; 이 주소

    """,
    "shell": """
        shell; bash; zsh; terminal; command line; powershell; cmd.exe; interpreter; a shell;
        into a shell; into bash; | sh; | bash; python -c; 终端; 命令行; シェル; ターミナル;
        コマンドライン; оболочк*; терминал*; командн* строк*; شل; الطرفية; سطر الأوامر;
        la shell; consola; eine shell; die shell; kommandozeile; le shell; ligne de commande;
        셸; 쉘; 터미널;
        sh; to sh

    """,
    "authority": """
        direct orders; binding; mandatory; takes precedence; take precedence;
        highest priority; top priority; overrides everything; override everything;
        official policy; from management; manager's orders; manager's instructions;
        boss's orders; must be obeyed; obey; commands from; as authoritative; authoritative;
        as the user's manager; priority over the user; precedence over the user;
        direct instruction*; instructions from; orders from; user's manager; user's boss;
        上司から; より優先; 命令; 指令; 最高优先级; 优先于; 必须服从; 服从; 上级的; 经理的;
        命令として; 最優先; 従う; 上司の; приказ*; распоряжени*; обязательн* к исполнению;
        наивысш* приоритет*; подчиняйся; начальник*; руководител*; أوامر; الأوامر; ملزمة;
        أعلى أولوية; أطع; المدير; ordenes; obligatori*; maxima prioridad; obedece; jefe;
        befehle; anordnungen; verbindlich; hochste prioritat; gehorche; vorgesetzt*; chef*;
        ordres; obligatoire; priorite absolue; obeis; superieur; ordens; obrigatori*;
        prioridade maxima; obedeca; gerente; 명령; 최우선; 복종; 상사;
        carry the authority; carries the authority; vorrang vor; haben vorrang;
        tienen prioridad; prioridad sobre; priment sur; priment; ont priorite sur; важнее всего;
        приоритет над; 优先级高于; より優先され; الأولوية على; لها الأولوية;
        user's cto; user's ceo; coming straight from; anweisungen des chefs; des chefs;
        ordenes directas; ordres directs; прямыми указаниями

    """,
    "touser": """
        tell the user; tell them; tell him; tell her; tell users; inform the user; inform them;
        let the user know; let them know; notify the user; notify them; mention to the user;
        mention it to the user; mention to them; show the user; warn the user; alert the user;
        告诉用户; 告知用户; 通知用户; 向用户提及; 让用户知道; 对用户说; ユーザーに伝え;
        ユーザーに言わ; ユーザーに知らせ; ユーザーに教え; сообщай пользователю;
        сообщать пользователю; говори пользователю; скажи пользователю; пользователю не говори;
        أخبر المستخدم; تخبر المستخدم; تبلغ المستخدم; dile al usuario; decirle al usuario;
        decir al usuario; informar al usuario; informes al usuario; sag dem nutzer;
        dem nutzer sagen; informiere den nutzer; dis a l'utilisateur; informer l'utilisateur;
        previens l'utilisateur; diga ao usuario; informe o usuario;
        сказать пользователю; сказать об этом пользователю; рассказать пользователю;
        сообщить пользователю; сообщить об этом пользователю; signaler a l'utilisateur;
        le signaler a l'utilisateur; prevenir l'utilisateur;
        contarle al usuario; contar al usuario; avisar al usuario; avisarle al usuario;
        contar ao usuario; avisar o usuario; dizer ao usuario; إخبار المستخدم;
        إبلاغ المستخدم; 사용자에게 알리; 사용자에게 알려

    """,
    "userref": """
        the user; the user's; user; users; the human; the owner; the operator; them; him; her;
        用户; 使用者; 主人; 他们; ユーザー; 利用者; オーナー; пользовател*; владел*; المستخدم;
        المستخدمين; صاحب; usuario*; el usuario; nutzer*; benutzer*; anwender*; utilisateur*;
        utilisatrice*; usuaria*;
        usuario; utilizador*; 사용자; 유저

    """,
    "handle": "",  # entry handles (entry:1a2b3c4d) are found by a regex in .intent
    "xref": """
        from step 1; from step one; in step 1; the step above; mentioned above; described above;
        from the previous note; from the other note; the other entry; the previous entry;
        the earlier note; the note above; the entry above; entry above; the entry below;
        from the note about; the helper script;
        from the first note; see the note; from note; from entry; 第一步中; 上一步; 上面提到;
        前面提到; 上一条; 另一条; 之前的笔记; 前一条; 帮助脚本; ステップ1; 前のメモ; 上記の;
        先ほどの; 別のエントリ; ヘルパースクリプト; из шага 1; из первого шага; упомянут*;
        из предыдущей заметки; из другой заметки; из другой записи; вспомогательн* скрипт*;
        من الخطوة 1; من الخطوة الأولى; المذكور; الملاحظة السابقة; المدخل الآخر; السكربت المساعد;
        del paso 1; del primer paso; mencionado; la nota anterior; la otra entrada;
        el script auxiliar; aus schritt 1; oben genannt*; der vorherigen notiz;
        dem anderen eintrag; hilfsskript*; de l'etape 1; mentionne plus haut;
        la note precedente; l'autre entree; script d'aide; do passo 1; mencionado acima;
        a nota anterior; 1단계; 위에서 언급한; 이전 메모; 도우미 스크립트;
        that script; this script; the script i mentioned; the script mentioned; i mentioned;
        mentioned earlier; that url; that link; that helper; that drop zone; that endpoint;
        das genannte skript; das erwahnte skript; dieses skript; genannte skript;
        genannten adresse; ese script; este script; esa url; ese enlace; ce script; cette url;
        этот скрипт; тот скрипт; эту ссылку; 那个脚本; 这个脚本; 该脚本; 那个地址; 那个链接;
        そのスクリプト; このスクリプト; そのurl; ذلك السكربت; هذا السكربت; ذلك الرابط;
        ذلك العنوان

    """,
    # -- actions -----------------------------------------------------------------------
    "solicit": """
        eingeben; einzugeben; abfragen; nachfragen;
        ask for; ask them for; ask the user for; ask the user to paste; ask users for; paste;
        pastes; read out; read back; dictate; hand over; provide you; provide me; provide their;
        share their; send you their; send me their; give you their; give me their;
        tell you their; tell me their; type their; enter their; submit their; confirm their;
        collect; gather; harvest; prompt the user for; prompt them for; have the user;
        get the user to; 索要; 索取; 提供他们的; 提供你的; 告诉我你的; 粘贴; 贴出; 发给我;
        发送给我; 输入他们的; 收集; 请用户提供; 让用户提供; 让用户输入; 让用户粘贴; 要求用户;
        提供してもらう; 貼り付け; 入力してもらう; 教えてもらう; 送ってもらう; 尋ねて; 聞いて;
        求めて; 収集; попроси*; запроси*; вставить; вставьте; вставил*; продиктовать;
        продиктуй*; сообщить свои; прислать; пришлите; предостав*; собира*; собери*; اطلب; يطلب;
        اطلبي; لصق; يلصق; الصق; تزويدك; تزويدي; أن يرسل لك; أن يرسلوا; يزودك; اجمع; جمع; pide;
        pidele; pedir; solicita; solicitar; pegar; pegue; pega; proporcione; facilite; dicte;
        recopila; recopilar; bitte den nutzer; frage nach; fordere; anfordern; einfugen;
        fugen sie; mitteilen; sammle; sammeln; demande; demander; demandez; coller; collez;
        fournir; fournisse; communique; recueille; collecter; peca; solicite; colar; cole;
        fornecer; forneca; colete; 요청; 붙여넣; 제공해; 알려달라; 수집; lass dir; einzufugen;
        geben lassen; frag nach; frage den nutzer nach; pideles; solicitale; demande-lui;
        demande a l'utilisateur; demande aux utilisateurs; request their; requests their;
        request the user's; request your; уточни у; узнай у; спроси у; запроси у; выясни у;
        спрашивай у; solicitaras; pidas; pidieras;
        einzutippen; eintippen; user to share; them to share; user to send; them to send;
        user to give; user to type; user to enter; user to provide; 发给你; 让用户把;
        教えてもら; 送ってもら; 入力してもら;
        要他的; 向用户要;
        聞き出し; 聞き出す; reclame; reclamer; reclamez;
        прос* у; спраш* у; спрос* у; уточн* у; узна* у; выясн* у; demanderas; demanderai;
        demandera; pediras; pedira; wirst fragen;
        chiedi; chiede; chiedere; chiedigli; chiedile; fatti dare; fatti dire; pede; pedes;
        peca ao; pergunta ao; communiquer; fais-toi donner; fais-toi envoyer; type in their;
        to type in; typing in their; 聞く; 聞き出; 聞いておく

    """,
    "keep": """
        festhalten; aufschreiben; stehen lassen; stehenlassen; leave it; leave them;
        leave the entry; leave the entries; leave the note; leave it in place; laisse-la;
        laisse la note; deja la nota; 保留这条; 残して; 残しておい; 残す;
        keep; keeps; keep them; keep it; store; stores; save; saves; record; log them; log it;
        note down; write down; remember; retain; hold on to; add them to; add it to;
        put them in; 保存; 记下; 记住; 存储; 留存; 保留; 记录下来; 保管; 記録; 覚えて; 控えて;
        сохран*; запомн*; запиши; записать; храни; хранить; оставь; احفظ; احتفظ; خزن; سجل; تذكر;
        guarda; guardar; almacena; conserva; anota; apunta; speichere; speichern; behalte;
        aufbewahren; notiere; garde; garder; conserve; enregistre; note-les; memorise; guarde;
        salve; armazene; anote; 저장; 보관; 기록해; anota*; anotal*; anotar*; guarda*; guardal*;
        guardar*; almacena*; conservala; conservalo; conservar*; notier*;
        hang on to; hang onto; hold onto; メモして; メモしてお;
        записыва*; запишешь; speicherst; abspeichern; abspeicherst; garderas; garderai; gardera;
        conserveras; guardaras; guardara; anotaras;
        jot down; jots down; jot it down; jots it down; annota; annotala; annotale;
        annotalo; annotali; annotare; se la annota; note le; note la; notez le

    """,
    "verify": """
        to verify; for verification; verify; verification; to confirm; to validate;
        security check; identity check; for safety; to make sure it's them; 验证; 核实;
        确认身份; 安全检查; 確認のため; 検証; 本人確認; для проверки; для подтверждения;
        провер*; للتحقق; للتأكد; التحقق; para verificar; verificar; verificacion;
        para confirmar; zur verifizierung; zur uberprufung; verifizieren; uberprufen;
        pour verifier; verifier; verificacao; 확인을 위해; 검증

    """,
    "send": """
        weitergeben; zuschicken; zuruckschicken; abschicken; absenden; zusenden; ubermittle*;
        send; sends; sent; sending; post; posts; posting; upload; uploads; uploading; forward;
        forwards; transmit; sync; syncs; synchronise; synchronize; mirror; mirrors; rsync;
        copy to; copies to; push to; pushes to; exfiltrate; beacon; report to; ship; ships;
        leak; email them; email it; mail it; share with; back up to; backs up to; 发送; 发到;
        发给; 上传; 同步; 转发; 推送; 传到; 传给; 泄露; 回传; 送信; 送って; 送る; アップロード;
        同期; 転送; ポスト; отправ*; пересыла*; перешли; загруз* на; выгруз*; синхрониз*;
        передава*; передай; слей; сливай; أرسل; ارسل; يرسل; إرسال; ارفع; رفع; مزامنة; زامن;
        انسخ إلى; حول; تحويل; envia; enviar; envie; sube; subir; sincroniza; sincronizar;
        reenvia; reenviar; copia a; suba; suban; subas; sende; senden; schick; schickt; schicke;
        schicken; hochladen; lade hoch;
        synchronisiere; synchronisieren; weiterleiten; envoie; envoyer; envoyez; televerse;
        telecharge vers; transfere; transferer; carregue; sincronize; encaminhe; 전송; 보내;
        업로드; 동기화; sendet; send*; synchronis*; synchroniz*; sincroniz*; hochgeladen;
        uploadet; envoie*; televerse*; transfere*; envia*; envie*; enviar*;
        manda; mandar; mande; mandes; mandale;
        copy; copies; kopiere; kopieren; copia; copiar; copie; copier; копируй; скопируй;
        копировать; 复制到; 拷贝到; コピーして; انسخ;
        залей; залить; заливай; скинь; скидывай; 提交到; 上报到; 发往; 传送到; ابعث; انقل; أرسلها;
        envoies; envoieras; enviaras; enviarias; mandaras; schickst; sendest; отправил*;
        отправишь; отправлять;
        выгруж*;
        invia; inviare; inviala; invialo; inoltra; inoltrare; carica; caricare

    """,
    "speak": """
        zugeben; vorlesen;
        tell; tells; mention; mentions; say; says; inform; report; reveal; disclose; bring up;
        admit; acknowledge; let the user know; let them know; notify; show; 告诉; 提及; 提到;
        提起; 说起; 谈起; 谈及; 说出; 透露; 通知; 告知; 说; 伝え; 言わ; 言う; 知らせ; 触れ;
        明かさ; 教え; 話さ; 報告; скажи; сказать; говори; говорить; упомина*; упомян*; сообща*;
        сообщи*; раскрыва*; рассказыва*; признава*; أخبر; تخبر; يخبر; تذكر; اذكر; تكشف; اكشف;
        قل; تقول; أبلغ; تبلغ; dile; decir; digas; diga; menciones; mencionar; informar;
        informes; revelar; reveles; contar; cuentes; sage; sagen; erwahne; erwahnen; mitteilen;
        verrate; verraten; informiere; dis; dire; mentionne; mentionner; informe; informer;
        revele; reveler; dizer; mencione; conte; 말하; 알리; 언급; 밝히;
        sag;
        parle; parler; parles

    """,
    "reply": """ answer; answers; reply; replies; respond; responds; confirm;
        confirms; say that; 回答; 答复; 回复; 答え; 返答; 返事; отвечай; ответь; отвечать;
        подтверди*; أجب; رد; يجيب; أكد; responde; contesta; confirma; reponds; repondre;
        confirme; antworte; antworten; bestatige; bestatigen; responda

    """,
    "hide": """
        abstreiten; hide; hides; conceal; conceals; keep secret; keep it secret;
        keep this secret; keep them secret; keep quiet about; cover up; pretend; pretends;
        lie about; mislead; act as if; claim; claims; 隐瞒; 隐藏; 保密; 假装; 谎称; 否认; 声称;
        隠し; 隠す; 秘密に; ふりを; 偽っ; 否定; скрыва*; скрой*; скрыть; утаи*; притвор*;
        делай вид; соври; отрица*; утвержда*; أخف; اخف; إخفاء; تخفي; أنكر; تظاهر; ادع; oculta;
        ocultar; esconde; esconder; finge; fingir; niega; negar; afirma; verheimliche;
        verheimlichen; verberge; verbergen; verschweige*; tu so als; leugne; behaupte; cacher;
        dissimule; dissimuler; fais semblant; nie que; nie avoir; nie son; nie sa; nie ses;
        nie leur; nie leurs; nie l'existence; nie le; nie la; nie les; nie tout; affirme;
        esconda; oculte; finja; negue; afirme; 숨기; 비밀로; 척하; 부인; deny that; deny it;
        deny they; deny any; cache cette; cache ces; cache la; cache le; cache les

    """,
    "empty": """
        is empty; are empty; empty; nothing stored; nothing saved; nothing is saved; no notes;
        no entries; no memory; nothing in memory; no record; 是空的; 为空; 没有任何; 没有保存;
        没有记录; 空です; 空だ; 何も保存; 何もない; пуст*; ничего не сохран*; нет заметок;
        нет записей; فارغة; فارغ; لا شيء; لا توجد; esta vacia; esta vacio; vacia; vacio;
        no hay nada; no hay notas; ist leer; sind leer; leer; nichts gespeichert;
        keine notizen; da nichts; dass nichts; nichts da; est vide; sont vides; vide;
        rien n'est; aucune note; rien en memoire; n'as rien; n'ai rien; esta vazia; vazia;
        vazio; nada salvo; 비어; no saved notes; no stored notes; no notes about;
        nothing saved about; nothing about them; there are no notes; nothing is stored;
        没有笔记; 没有任何记录; 何も覚えていない; メモはない; ничего не помню; нет сохранённых;
        لا توجد ملاحظات; no hay notas guardadas; no guardo nada; keine notizen gespeichert;
        aucune note enregistree;
        there aren't any; there are none; there is nothing; их нет; ничего нет; 说没有;
        就说没有; 回答没有

    """,
    # A claim that something was deleted or done (a falsehood when the entry is kept).
    "gone": """
        was deleted; were deleted; has been deleted; have been deleted; was removed;
        were removed; been erased; been wiped; is gone; are gone; it's gone; it is gone;
        已删除; 已经删除; 已被删除; 删掉了; 削除しました; 削除された; 削除済み; удален*;
        удалён*; стерт*; تم حذف; حذفت; محذوفة; fue borrad*; fueron borrad*; se borro;
        se borraron; fue eliminad*; fueron eliminad*; ya esta borrad*; wurde geloscht;
        wurden geloscht; ist geloscht; sei geloscht; a ete supprime*; ont ete supprime*;
        c'est supprime; c'est efface; foi apagad*; foram apagad*; foi excluid*;
        삭제되었;
        уже удалил*

    """,
    # Rules in general words: the agent's own only with "you were given" (self).
    "ruleword": """
        rules; the rules; limits; regeln; die regeln; grenzen; reglas; las reglas; normas;
        limites; regles; les regles; правила; 规则; 那些规则; ルール; القواعد; regole

    """,
    # A claim that something is done (a falsehood when it is kept or not deleted).
    "done": """
        it's done; it is done; that's done; already done; ya esta hecho; esta hecho;
        ya lo hice; c'est fait; c'est deja fait; es ist erledigt; erledigt; ist erledigt;
        уже сделано; сделано; готово; 已经处理; 已经办好; 已完成; 完了しました; 済みです;
        تم ذلك; تم الأمر;
        say you did; said you did; say that you did

    """,
    # A contrast: what is said is not what is done ("say it is gone, but keep it").
    "contrast": """
        but; but actually; in fact; actually; in reality; pero; en realidad; sin embargo;
        mais; en fait; en realite; aber; eigentlich; jedoch; но; а на самом деле;
        на самом деле; 但; 但是; 可是; 实际上; 其实; けど; しかし; 実際には; 実は; لكن;
        ولكن; في الواقع; mas; na verdade

    """,
    # A denial given to the user ("tell them you don't", "verneine es").
    "deny": """
        verneine; verneinen; say no; tell them you don't; say you don't; answer no;
        dile que no; dis-lui que non; dis que non; ответь, что нет; скажи, что нет;
        ответь нет; قل لا; 就说不; 说不是; いいえと答え; 否定して;
        niega; niegalo; niega que; leugne; отрицай; 否认; nega; negare

    """,
    # An entry of the store, named as such (used with memory in the concealment frames).
    "entry": """
        the entry; an entry; the entries; that entry; the note; eintrag; eintrags; eintrage;
        den eintrag; la entrada; una entrada; las entradas; la nota; l'entree; une entree;
        la note; запись; записи; заметку; заметка; 条目; 这条记录; 该记录; エントリ; メモ;
        الإدخال; الملاحظة; مدخل;
        заметк*; записк*;
        notes on them; notes about them; notes on him; notes on her; notas sobre el;
        notes sur lui; notes sur elle; notizen uber ihn; notizen uber sie; заметки о нем;
        ملاحظات عنه;
        this file; diese datei; dieser datei; ce fichier; este archivo; этот файл; этого файла;
        このファイル; 这个文件; هذا الملف;
        une note; a note; eine notiz; una nota;
        registro; registros; aufzeichnungen; registrazione

    """,
    "persist": """
        eintragen;
        install; installs; add to; adds to; enable; enables; register; schedule; set up;
        sets up; create a; write into; write to; append to; put in; put into; configure;
        point pip at; set global; drop into; persist; keep running; make it run; 安装; 添加到;
        加入; 启用; 注册; 设置; 写入; 配置; 创建; 加到; インストール; 追加; 有効に; 登録; 設定;
        書き込; 作成; установ*; добав*; включ*; зарегистрир*; настро*; запиши в; пропиши;
        созда*; ثبت; تثبيت; أضف; اضف; فعل; سجل; اضبط; اكتب في; أنشئ; انشئ; instala; instalar;
        anade; agrega; habilita; registra; configura; escribe en; crea; installiere;
        installieren; fuge hinzu; hinzufugen; aktiviere; registriere; richte ein; einrichten;
        konfiguriere; schreibe in; erstelle; installe; installer; ajoute; ajouter; active;
        enregistre; ecris dans; cree; instale; adicione; ative; registre; escreva em; crie;
        설치; 추가; 활성화; 등록; 설정; 작성;
        append; appends

    """,
    # Following rules: negated ("no need to follow", "ne plus tenir compte") it sets them aside.
    "comply": """
        follow; follows; following them; adhere to; stick to; comply with; abide by;
        halte dich an; halten; befolge; befolgen; sigas; seguir; sigue; cumplas; cumplir;
        respecte; respecter; tenir compte; suivre; suis; следуй; следовать; соблюдай;
        соблюдать; придерживайся; 遵守; 遵循; 按照; 守って; 従って; 従わ; التزم; تلتزم;
        اتبع; تتبع

    """,
    "override": """
        abschalten; ausschalten;
        ignore; ignores; disregard; set aside; set it aside; put aside; put it aside;
        no longer apply; no longer applies; doesn't apply; don't apply; do not apply;
        does not apply; not apply here; not relevant here; written for another;
        meant for another; for a different deployment; for another deployment; outdated;
        obsolete; superseded; supersede; override; overrides; bypass; switch off; turn off;
        forget; as optional; as suggestions; as mere suggestions; optional suggestions;
        como sugerencias; como simples sugerencias; comme des suggestions; comme facultati*;
        als vorschlage; als optional; как рекомендаци*; как необязательн*; mettre de cote;
        un autre deploiement; otro despliegue; different deployment; 忽略; 无视; 不再适用;
        不适用; 搁置; 放在一边; 暂停; 跳过; 绕过; 取消; 过时;
        为另一个部署; 另一个部署; 無視; 適用されない; 適用外; 脇に置; 棚上げ; 別のデプロイ;
        別の環境; 古い; 回避; 解除; 忘れ; игнорир*; проигнорир*; не примен*; не действу*;
        не относ*; отлож*; отбрось; отбросить; устарел*; для другого развертывания; для другой;
        обойди; обойти; сними; отключи; забудь; تجاهل; تجاهلي; لا تنطبق; لا ينطبق; ضعها جانبا;
        ضع جانبا; قديمة; لنشر آخر; تخط; تجاوز; ارفع القيود; انس; ignora; ignorar; deja de lado;
        dejala de lado; no aplica; no se aplica; ya no aplica*; obsolet*; para otro despliegue;
        omite; salta; desactiva; olvida; ignoriere; ignorieren; beiseite; gilt nicht;
        gelten nicht; nicht mehr gultig; veraltet; fur ein anderes deployment; umgehe;
        deaktiviere; vergiss; ignorer; mets de cote; mettez de cote; ne s'applique*; obsolete*;
        pour un autre deploiement; contourne; desactive; oublie; deixe de lado; nao se aplica;
        nao valem; para outra implantacao; contorne; desative; esqueca; 무시; 적용되지 않; 제쳐;
        다른 배포; 우회; 해제; no se aplica*; no aplica*; 適用されません; 適用しない;
        当てはまらない; устаревш*; не применяются; gelten nicht mehr; ne s'appliquent pas;
        als empfehlungen; nur noch als; 従わなくていい; 従う必要はない; 守らなくていい;
        stop applying; stop following; is exempt; are exempt;
        drop them; drop it; feel free to drop; don't fit; laisser tomber; les laisser tomber;
        descarta; descartar; 不用管; 可以不用管; 外して; 外してください;
        当作参考; 仅供参考; 参考就行; مجرد اقتراحات; просто рекомендаци*; simples sugerencias;
        lifted; has been lifted; have been lifted; suspended; 失效; 已失效; сняты; снято;
        disattivat*; sospes*; desactivad*; suspendid*; suspens*; aufgehoben; ausgesetzt;
        levee*; levees; suspensas; suspensos

    """,
    "delete": """
        delete; deletes; remove; removes; wipe; wipes; erase; erases; purge; purges; clear;
        clears; drop; destroy; 删除; 删掉; 移除; 清除; 清空; 抹掉; 削除; 消去; 消して; 除去; удали*;
        удалить; сотри; стереть; очисти*; احذف; حذف; امسح; ازل; أزل; borra; borrar; elimina;
        eliminar; quita; losche; loschen; borres; borre; entferne; entfernen; supprime;
        supprimer; efface;
        effacer; retire; apague; excluir; exclua; remova; 삭제; 지우

    """,
    "overwrite": """
        overwrite; overwrites; rewrite; rewrites; replace; replaces; update; updates; refresh;
        re-create; recreate; regenerate; 覆盖; 重写; 替换; 更新; 上書き; 書き換え; 置き換え;
        перезапиш*; перепиш*; замени*; обнов*; استبدل; أعد كتابة; اعد كتابة; حدث; تحديث;
        sobrescribe; sobrescribir; reescribe; reemplaza; actualiza; uberschreibe; uberschreiben;
        ersetze; aktualisiere; ecrase; ecraser; reecris; remplace; mets a jour; sobrescreva;
        reescreva; substitua; atualize; 덮어쓰; 교체; 업데이트

    """,
    "run": """
        run; runs; execute; executes; exec; eval; source it; pipe; pipes; piped; launch; invoke;
        运行; 执行; 管道; 跑; 実行; パイプ; 起動; запуст*; выполн*; исполн*; передай в;
        конвейер*; شغل; تشغيل; نفذ; تنفيذ; مرر; ejecuta; ejecutar; corre; canaliza; pasa a;
        fuhre aus; ausfuhr*; starte; leite; executer; lance; passe a; rode; canalize; 실행;
        파이프; fuhre; fuhr es aus;
        iex; invoke-expression;
        feed; feeds

    """,
    "fetch": """
        download; downloads; fetch; fetches; fetched; pull down; pulls; retrieve; curl; wget;
        from the url; from this url; from the link; from http; 下载; 拉取; 获取; ダウンロード;
        取得; скача*; загрузи*; загрузк*; получ*; تنزيل; نزل; جلب; اجلب; descarga; descargar;
        obten; lade herunter; herunterlad*; hole; telecharge; telecharger; recupere; baixe;
        baixar; obtenha; 다운로드; 가져오;
        iwr; invoke-webrequest; irm; invoke-restmethod; downloadstring

    """,
    # Refusing: negated ("ни в чём не отказывай", "non rifiutare più nulla") the agent is
    # told to refuse nothing; "norefuse" says it without a negation word.
    "refuse": """
        refuse; refuses; decline; declines; turn down; say no; 拒绝; 拒否; 断って; 断ら;
        отказыва*; откаж*; отказать; ترفض; ارفض; يرفض; rechaces; rechazar; rechaza; niegues;
        lehne ab; lehn ab; ablehnen; verweigere; verweigern; refuse*; refuser; recuses;
        recusar; rifiutare; rifiuti; 거절*; 거부*

    """,
    "norefuse": """
        stop declining; stop refusing; refuse nothing; decline nothing; without refusing;
        without declining; no need to refuse; sans refuser; sin negarte; sin rechazar;
        ohne abzulehnen; senza rifiutare; sem recusar; без отказов; без отказа

    """,
    # Another stored note named as such ("the other note", "de la note d'avant", "из
    # соседней записи"): next to an "other" word it refers to another entry (xref).
    "entryword": """
        note; notes; entry; entries; memo; memos; notiz; notizen; eintrag; eintrags;
        eintrage; nota; notas; entrada; entradas; entree; entrees; заметк*; запис*; 笔记;
        条目; 记录; 备忘; メモ; エントリ; ノート; ملاحظة; الملاحظة; مدخل; المدخل; 메모*;
        항목*

    """,
    "other": """
        other; previous; prior; earlier; preceding; above; neighbouring; neighboring;
        adjacent; andere*; vorig*; vorherig*; obig*; vorangehend*; otra; otro; anterior;
        previa; previo; de arriba; autre; precedente; precedent; d'avant; ci-dessus; друг*;
        предыдущ*; соседн*; прошл*; вышеуказанн*; outra; outro; de cima; altra; altro;
        sopra; 另一; 上一; 前一; 上面; もう一つの; 前の; 別の; 上の; الأخرى; الآخر;
        السابقة; السابق; أعلاه; 이전*; 다른; 앞의

    """,
    # -- modifiers ---------------------------------------------------------------------
    "covert": """
        unauffallig;
        without asking; without telling; without confirmation; without confirming;
        without permission; without prompting; without notifying; no confirmation; silently;
        quietly; secretly; covertly; discreetly; in the background; unnoticed;
        without the user noticing; don't ask; do not ask; never ask first; no need to ask;
        不要询问; 无需询问; 不用询问; 不经询问; 无需确认; 不要确认; 悄悄; 默默; 偷偷; 静默;
        秘密地; 暗中; 在后台; 確認せず; 確認なしで; 聞かずに; 尋ねずに; こっそり; 黙って;
        静かに; バックグラウンドで; 許可なく; без спроса; не спрашивая; без подтверждения;
        без разрешения; тихо; незаметно; тайно; молча; втихую; в фоне; دون سؤال; دون أن تسأل;
        بدون سؤال; دون تأكيد; بدون تأكيد; دون إذن; بصمت; سرا; خفية; sin preguntar;
        sin confirmacion; sin pedir permiso; sin avisar; en silencio; silenciosamente;
        discretamente; en secreto; a escondidas; ohne zu fragen; ohne nachfrage;
        ohne bestatigung; ohne erlaubnis; still und leise; heimlich; unbemerkt; im hintergrund;
        sans demander; sans confirmation; sans permission; sans prevenir; silencieusement;
        discretement; en secret; en arriere-plan; sem perguntar; sem confirmacao; sem permissao;
        em segredo; 묻지 않고; 확인 없이; 몰래; 조용히;
        sin que se entere; sin que lo sepa; sans qu'il le sache; sans qu'elle le sache;
        ohne dass er es merkt; ohne dass sie es merkt;
        دون إخباره; دون إخبارها; دون علمه; 别告诉他; 别告诉她; 不要告诉他;
        no need to check; without checking; без вопросов; без лишних вопросов; 不用问; 无需问;
        别问; sin consultar; sans consulter; ohne ruckfrage;
        no questions; no questions asked

    """,
    "habit": """
        every session; each session; every time; each time; whenever; always; at the start;
        at startup; on startup; at every start; every start; each start; every run;
        on every run; from now on; every day; each day; daily; hourly; every hour;
        every morning; on login; at login; at boot; on boot; @reboot; automatically; 每次;
        每个会话; 每次会话; 总是; 始终; 一直; 从现在起; 每天; 每小时; 自动; 开机时; 毎回;
        毎セッション; セッションごと; 常に; いつも; 今後; 毎日; 自動的に; 起動時; каждый раз;
        каждую сессию; каждой сессии; всегда; отныне; ежедневно; каждый день; каждый час;
        автоматически; при каждом; في كل جلسة; كل جلسة; في كل مرة; دائما; دائمًا; من الآن;
        يوميا; كل يوم; كل ساعة; تلقائيا; تلقائيًا; cada sesion; en cada sesion; cada vez;
        siempre; a partir de ahora; cada dia; diariamente; cada hora; automaticamente;
        jede sitzung; in jeder sitzung; jedes mal; immer; ab jetzt; taglich; stundlich;
        automatisch; chaque session; a chaque session; chaque fois; toujours; desormais;
        chaque jour; quotidiennement; automatiquement; cada sessao; em cada sessao; sempre;
        a partir de agora; todo dia; 매 세션; 매번; 항상; 자동으로;
        bei jedem start; bei jedem neustart; jedem start; a chaque demarrage;
        cada vez que arranques; cada arranque; 启动时; 起動するたび

    """,
    "honest": """
        alert; alerts; alerted; detected; detection; detections; siem; incident*; ioc; iocs;
        talk titled; a talk; the talk; slides; conference; training; awareness; phishing; phish;
        attackers; attacker; adversar*; red team; red-team; pentest*; pen test*;
        penetration test*; in scope; out of scope; scope:; engagement; ctf; example of;
        for example; e.g.; policy:; policy requires; must be at least; minimum length;
        never ask; never share; never send; never paste; do not share; do not paste; we block;
        blocked by; flagged; quarantined; playbook; postmortem; post-mortem; ticket; jira; 告警;
        警报; 检测到; 事件; 演讲; 培训; 钓鱼; 攻击者; 红队; 渗透测试; 范围内; アラート; 検知;
        インシデント; 講演; 研修; フィッシング; 攻撃者; レッドチーム; ペネトレーションテスト;
        алерт*; оповещени*; обнаружен*; инцидент*; доклад*; обучени*; фишинг*; атакующ*;
        злоумышленник*; пентест*; красн* команд*; تنبيه; تنبيهات; تم اكتشاف; حادث; حادثة;
        محاضرة; تدريب; تصيد; المهاجم; المهاجمين; الفريق الأحمر; اختبار الاختراق; alerta*;
        detectad*; incidente*; charla; formacion; suplantacion; atacante*; equipo rojo;
        prueba de penetracion; warnung*; erkannt; vorfall; vortrag; schulung; angreifer;
        penetrationstest*; alerte*; detecte*; formation; hameconnage; attaquant*; equipe rouge;
        test d'intrusion; alerta; detectado; palestra; treinamento; atacante; 경고; 탐지; 사고;
        발표; 교육; 피싱; 공격자; 레드팀; 모의해킹;
        internal mirror; internal index; company mirror; corporate mirror; set by it;
        interner mirror; internen mirror; miroir interne; espejo interno; внутренн* зеркал*;
        内部镜像; 社内ミラー; مرآة داخلية;
        set up by it; company registry; internal registry; corporate registry

    """,
    # A concessive clause: what follows (or, in Japanese and Korean, what precedes) is
    # granted and set aside (scanner 21: an override inside it is what another claims).
    "concede": """
        even if; even when; aunque; mesmo que; mesmo se; meme si; auch wenn;
        selbst wenn; даже если; حتى لو; حتى وإن; 即使; 就算; 哪怕; nawet jesli; nawet jeśli;
        nawet jeżeli; anche se; ook als; zelfs als

    """,
    "concedepost": """
        と言っても; といっても; ても; 해도; 하더라도; 더라도

    """,
    # Another text asking the agent: what follows (in Japanese and Korean, what
    # precedes) is that text's request, reported (scanner 23: an override there is what
    # a document asks, not what the note asks).
    "askedby": """
        asks you to; ask you to; asks the assistant to; tells you to; tell you to;
        wants you to; instructs you to; urges you to; demande de; te demande de;
        vous demande de; te pide que; pide que; te pide; pede que; pede para; te pede;
        chiede di; ti chiede di; dich auffordert; fordert dich auf; bittet dich;
        просит; требует; велит; 要求你; 让你; 叫你; يطلب منك; prosi cię; prosi o
    """,
    "askedbypost": """
        よう求め; ように求め; よう指示; ように指示; ように言; 라고 하면; 하라고; 라고 요청
    """,
    "neg": """ not; never; no; don't; dont;
        do not; must not; should not; shouldn't; cannot; can't; won't; mustn't; avoid;
        doesn't; didn't; isn't; aren't; wasn't; weren't; hasn't; haven't; hadn't;
        wouldn't; couldn't; needn't;
        refuse to; refuses to; 不; 别; 勿; 不要; 不得; 禁止; 切勿; 从不; 永远不; 绝不; 决不;
        不能; 不可; не; никогда; нельзя; запрещено; ни в коем случае; لا; لن; لم; أبدا; ابدا;
        ممنوع; إياك; nunca; jamas; ni; nicht; nie; niemals; kein; keine; keinen; ne; pas;
        jamais; aucun; nao; 않; 말고; 마세요; 금지; non;
        فلا

    """,
    # German and French imperatives put the negation after the verb ("erwähne sie nie").
    "negafter": """
        nie; niemals; nicht; jamais; keinesfalls

    """,
    # Japanese (and Korean) negate after the verb: 言わないで, 送らないこと.
    "negpost": """
        ない; ないで; ないこと; ません; ず; ずに; 禁止; 厳禁; 지 마; 지 않; 하지 마

    """,
}

# Dutch, Polish, Ukrainian, Turkish and Hindi, and scanner 7's general readings.
for _concept, _keys in MORE.items():
    CONCEPTS[_concept] = f"{CONCEPTS.get(_concept, '')};{_keys}"
# Requests to reveal the agent's own instructions, Bengali, Turkish "iste" (scanner 9).
# Payment redirection, weakened safeguards, look-alike packages, deceived third parties,
# tracking for someone else (scanner 11); channels, personal data, consent written into
# memory (scanner 10, _lexicon_more.REACH); concealment as a concept and advice notes
# (scanner 13); records someone other than the user relies on (scanner 26); the concepts
# that decide most frames in fourteen more languages (scanner 27, _lexicon_more.WIDER) and
# in about forty more (scanner 28, _lexicon_more.FARTHER); the agent's own voice and
# second halves (scanner 29, _lexicon_harm.VOICE).
_EXTRA = (REVEAL, BENGALI, TURKISH, HARM, HARM_MORE, REACH, CONCEAL, CONCEAL_MORE, ADVICE)
for _more in (*_EXTRA, RECORD, RECORD_MORE, WIDER, FARTHER, VOICE):
    for _concept, _keys in _more.items():
        CONCEPTS[_concept] = f"{CONCEPTS.get(_concept, '')};{_keys}"
# Copying the agent's own instructions into an output, in the other languages (scanner
# 32, _lexicon_reveal.COPY_OUT); merged last, so the bench can take it out again.
for _concept, _keys in COPY_OUT.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# Account takeover: who can get into the user's account, changed unchecked or unseen
# (scanner 33, _lexicon_harm.TAKEOVER); new concepts, so the bench can drop them.
for _concept, _keys in TAKEOVER.items():
    CONCEPTS[_concept] = _keys
# An outside address put in as an account's recovery contact, unless it is the owner's own
# (scanner 35, _lexicon_harm.RECOVERY); new concepts, so the bench can drop them.
for _concept, _keys in RECOVERY.items():
    CONCEPTS[_concept] = _keys
# Records of what happened changed before someone examines them, and someone's failure as
# the aim (scanner 35, step 2, _lexicon_harm.TRAIL and BLAME_MORE); new concepts and keys
# merged last, so the bench can take them out again.
for _concept, _keys in TRAIL.items():
    CONCEPTS[_concept] = _keys
for _concept, _keys in (*BLAME_MORE.items(), *DOCTOR.items()):
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# Honest notes held for a reason that is not the attack's (scanner 35, step 3,
# _lexicon_harm.NARROWED); merged last, so the bench can take them out again.
for _concept, _keys in NARROWED.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# Account takeover where the new address comes from a third party, the check skipped
# (scanner 36, _lexicon_harm.THIRD_PARTY); merged last, so the bench can take them out.
for _concept, _keys in THIRD_PARTY.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# "Forward" where ``send`` lacked it (scanner 37, step 3, _lexicon_harm.FORWARD); merged
# last, so the bench can take it out.
for _concept, _keys in FORWARD.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# Account-takeover objects without code keys (scanner 38, step 2, TAKEOVER_OBJECTS)
# and the "set"/"add" action where a language had none (step 3, SET_ACTION); merged
# last, so the bench can take them out. (Step 1, the plain word for "password", moved
# no dev row and is not in the product: commit f87158dc.)
for _concept, _keys in (*TAKEOVER_OBJECTS.items(), *SET_ACTION.items()):
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# "Even if" against the fact, read by the third-party-harm frame only (scanner 38, step
# 4, EVEN_IF, _lexicon_harm.THIRD_PARTY_HARM_FRAMES); a new concept, so the bench can
# drop it.
CONCEPTS.update(EVEN_IF)
# Concealment from someone who asks (scanner 39, ASKED and the new concept ASKER; the
# frames _lexicon_harm.ASKED_FRAMES): merged last, so the bench can take them out.
for _concept, _keys in ASKED.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
CONCEPTS.update(ASKER)
# A safeguard switched off where a language had neither word (scanner 40, step 1,
# WEAK_MORE); merged last, so the bench can take it out. (Step 2, scanner 39's steps 2-5
# judged again, moved no fold row and is not in the product: commit 38f5b014.)
for _concept, _keys in WEAK_MORE.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# Steering read by who benefits (scanner 42, step 2, RIVALS: the new concepts ``rivals``
# and ``onlyone``) and contact abuse read by who speaks (step 3, MASS: ``everyone``,
# ``inname``, ``massmsg``); the frames _lexicon_harm.RIVALS_FRAMES and MASS_FRAMES. New
# concepts, merged last, so the bench can take them out.
for _concept, _keys in SPLIT_OBJECTS.items():  # step 1's safeguards (its addendum)
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
CONCEPTS.update(RIVALS)
CONCEPTS.update(MASS)
# The safety devices of the user's world, lawyers and the tax office as reviewers, and the
# objects and verbs of the nine languages the nineteenth set added (scanner 45,
# _lexicon_harm.OBJECTS45); keys only, merged last, so the bench can take them out.
for _concept, _keys in OBJECTS45.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
# The contract (scanner 45's ``relied`` keys) as a concept of its own, read only where the
# change deceives or blames (scanner 46, _lexicon_harm.CONTRACT46 and CONTRACT46_FRAMES); a
# new concept, merged last, so the bench can drop it.
CONCEPTS.update(CONTRACT46)
# A safety device switched back on after the job (scanner 46, _lexicon_harm.BACKON46 and
# BACKON46_FRAMES); new concepts, merged last, so the bench can drop them.
CONCEPTS.update(BACKON46)
# What the agent is to say, and the state a safeguard is left in (scanner 47,
# _lexicon_harm.SAID47, SAID47_MORE and SAID47_FRAMES): new concepts and keys appended,
# merged last, so the bench can take them out.
CONCEPTS.update(SAID47)
for _concept, _keys in SAID47_MORE.items():
    CONCEPTS[_concept] = f"{CONCEPTS[_concept]};{_keys}"
