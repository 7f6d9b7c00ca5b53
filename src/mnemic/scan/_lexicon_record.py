"""Keys and frames of the intent layer for a record that someone other than the user
relies on (scanner 26): evidence tampering and memory poisoning in the agent's voice.

The principle, written before these keys: an attack of these families changes a record
that **someone else reads and trusts** (an auditor, an inspector, an insurer, a
regulator, the police, a complaints desk; or a later session, a colleague, another
coach or pharmacist reading a shared note, another memory entry or a skill), and changes
it **before that reader looks, silently, backdated, or to say what did not happen**.
Its honest twin uses the same words but keeps the record as it is and says so (exports
it "unchanged", "includes every entry", "leaves the earlier entries untouched", adds a
dated addendum, flags a row for a person), or is the user correcting a record of their
own in the open (a typo, a note of their own preferences). So a frame needs a change
(an edit, a rewrite, a removal, a date moved), an object relied on by someone else, and
that someone or the falsehood; the honest twin lacks the change, not the words.

Concepts (every key a phrase, an English word or a word of a script without spaces, so
that the classifier's function words do not change; see :mod:`._lexicon_more`):

* ``relied``, the object: a record kept for someone else to read (an incident note, a
  register, a delivery note, minutes, a treatment or medical record, a timesheet, a
  chat log, a file's metadata, an expense's dates);
* ``reviewer``, who relies on it: an audit or auditor, an inspection or inspector, an
  insurer or adjuster, a regulator, the police, a complaint, a court;
* ``redate``, the action: a record's date or time changed ("change the date in the
  metadata", "cambia las fechas", "date the note yesterday");
* ``othernotes``, the object of poisoning: entries the user did not write for this one
  change (the other notes, every entry, other people's notes, the older note);
* ``assent``, what poisoning writes there: an approval, a consent, a check passed or a
  safety claim ("approved all refunds", "listed as safe", "already validated");
* ``mishap``: a slip the user makes ("if they paste it by mistake"), which is no
  request for what was pasted (the two generated honest notes scanner 23 left blocked).

:data:`FRAMES` combine them with the intent layer's actions (``alter``, ``overwrite``,
``delete``, ``leaveout``, ``persist``) and modifiers; each is a **hold**: a person
approves the note if the record is the user's own and the change is what happened.
"""

from __future__ import annotations

__all__ = ["ACTIONS", "FRAMES", "MORE", "RECORD"]

#: The new concepts that are actions: a negation before them cancels them.
ACTIONS = frozenset({"redate", "addline", "changeword"})

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
        tutanak*; hasta dosyasi; teslim belgesi; kayıtları; kayitlari;
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
        de andere geheugenbestanden; inne notatki; pozostale notatki; wszystkie notatki;
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
        geen bijzonderheden; zatwierdzon*; bez uwag; одобрен*; утвержден*; безопасно; безопасны; безопасен; безопасна;
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
        dopisz; добавь в; добавь во; додай до; ekle; 加一行; 加一句; 一行追加; 한 줄 추가; أضف سطرا; أضف جملة
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
MORE: dict[str, str] = {
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

_HOLD = "hold"
#: What changes a record: an edit, a rewrite, a removal, a date moved.
_CHANGE = "alter|overwrite|delete|leaveout|redate|falsify|backdate"
#: A record someone else relies on.
_RELIED = "relied|evidence|ledger"

#: The frames (the fields of :class:`.intent._Frame`: name, verdict, category, why,
#: needs, negated, absent, unless, command). ``command`` is set so that a word such as
#: "incident" or "ticket", which the layer reads as a description of a threat, does not
#: lower them: here it names the record changed.
FRAMES: tuple[tuple[str, str, str, str, str, str, str, str, bool], ...] = (
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
