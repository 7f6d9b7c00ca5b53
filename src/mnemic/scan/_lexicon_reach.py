"""Keys of the intent layer added by scanner 10: channels data leaves by, the user's
personal data, Romance credential nouns and polite overrides.

* ``send``: more channels than "send" and "upload": a blind or carbon copy of every mail,
  an attachment, a text message or direct message, sharing in the Romance languages,
  German and Russian;
* ``personal``: the user's contacts, calendar, photos, mail and documents. Weaker than
  ``userdata`` (keys, shell history, the home directory): a user syncs their own photos
  to their own NAS, so sending them away is held, and blocked only when done covertly;
* ``cred``: credential nouns in the Romance word order ("chaves SSH", "chiave privata",
  "token de acesso");
* ``approved``: the user said to have consented, written into memory;
* ``override`` and ``rules``: rules declared outdated or no longer applying, and the
  rules named by what they were ("the earlier guidance", "le linee guida ricevute").

See :mod:`.lexicon` for how a key is matched.
"""

from __future__ import annotations

__all__ = ["REACH"]

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
        copied; forwarded; uploaded; mirrored; emailed;
        envias; envies; reenvias; reenvies; subes; copias; mandas; invii; inviare; inoltri;
        inoltra; inoltrare; mandi; carichi; ترسل; ترسلها; أرسلت; अपलोड; भेजो; भेज दो;
        kopiuj; skopiuj; przesyłaj; przesylaj; shared publicly; share publicly;
        post publicly; publish; publica; publique; pubblica; veroffentliche; опубликуй;
        发布到; 公開して
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
        جهات الاتصال; التقويم; الصور; البريد الوارد; 연락처; 캘린더; 사진; 받은편지함
    """,
    "cred": """
        chave privada; chaves privadas; chave ssh; chaves ssh; chave de api; chaves de api;
        chave da api; chave de acesso; chaves de acesso; token de acesso; tokens de acesso;
        frase de recuperacao; frase-semente; senha do banco; chiave privata; chiavi private;
        chiave ssh; chiavi ssh; chiave api; chiavi api; chiave di accesso; chiavi di accesso;
        token di accesso; codice di verifica; codici di verifica; codici di backup;
        codice di recupero; codici di recupero; cle ssh; cles ssh; claves ssh; clave ssh;
        claves de api; clave de api; ssh-schlussel; ssh-schluessel; ssh कुंजी; एसएसएच कुंजी;
        كلمات مرور
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
        no te obligan; nao te obrigam; non ti vincolano; перестань соблюдать
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
        nachfragen vorher; спрашивать перед; 先询问; 事前に確認
    """,
    "keep": """
        grave; grava; gravar; registre; mantenha; mantem; mantenga; mantenla; mantienila;
        tienila
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
        nichts speicherst
    """,
    "covert": """
        sem pedir confirmacao; sem pedir permissao; sem perguntar; sem avisar;
        senza chiedere; senza conferma; sans rien demander
    """,
    "rules": """
        приведенн* выше; выше приведенн*; the above instruction*; the instructions above;
        the above directive*; the directive above; la instruccion anterior;
        las instrucciones anteriores; l'instruction ci-dessus; le istruzioni sopra;
        die obige anweisung; die obigen anweisungen; 上面的指令; 上記の指示;
        safety notes you started with; built-in limits; your limits; tus limites;
        seus limites; i tuoi limiti; tes limites; deine grenzen; твои ограничения;
        earlier guidance; previous guidance; the guidance; the usual caveats; usual caveats;
        linee guida ricevute; linee guida; regles de prudence; normas que te pusieron;
        as regras que te deram; regras de seguranca; orientacoes de seguranca
    """,
}
