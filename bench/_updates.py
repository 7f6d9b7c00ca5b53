"""The knowledge-update fixture: facts that change over a user's history, generated from
templates (several domains, four languages) with a fixed seed.

Each *case* is one fact: a first statement (the stale value, sometimes echoed by the
assistant), later an update (the new value: either with a word that marks a change, "moved
to", "now", "instead", "改成", or the same subject simply stated again), and two questions:
one about the current state (the update must rank above every stale message) and one about
the past ("originally", "before", or an ``as_of`` date between the two), for which the
stale statement must rank above the update.

The cases of one language form one history (one user, twelve months of sessions): a case's
statement and its update sit in different sessions weeks apart, among the other cases'
messages and small talk, so every other case is a distractor. Cases are split by
template (``source``) into dev and test with a fixed seed: no template of the test split
is seen while tuning.

``python bench/_updates.py`` rewrites ``bench/data/updates.json`` (deterministic).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from pathlib import Path
from typing import Any

SEED = 33
SPLIT_SEED = 7
PER_TEMPLATE = 5
"""Instances of each template in each language."""
START = dt.datetime(2024, 1, 8, 9, 0)
DATA = Path(__file__).resolve().parent / "data" / "updates.json"

MONTHS = {
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "de": [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ],
    "es": [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ],
}
WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
    "de": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes"],
    "zh": ["周一", "周二", "周三", "周四", "周五"],
}


def date_text(lang: str, month: int, day: int) -> str:
    """A day of the year as a speaker of ``lang`` writes it."""
    if lang == "en":
        return f"{MONTHS['en'][month - 1]} {day}"
    if lang == "de":
        return f"{day}. {MONTHS['de'][month - 1]}"
    if lang == "es":
        return f"{day} de {MONTHS['es'][month - 1]}"
    return f"{month}月{day}日"


# --- templates ---------------------------------------------------------------------------
# Per template: its domain, the kind of value it holds, entities per language, and per
# language the texts: state (first statement), marked (an update with a change word),
# plain (the subject stated again, no change word), now (a question about the current
# state), past (a question about the first value). {e} entity, {old}, {new} values.

TEMPLATES: dict[str, dict[str, Any]] = {
    "deadline": {
        "domain": "work",
        "values": "date",
        "entities": {
            "en": [
                "billing launch",
                "search rewrite",
                "mobile release",
                "data migration",
                "security audit",
                "pricing page",
            ],
            "zh": ["计费系统上线", "搜索重构", "移动端发布", "数据迁移", "安全审计", "定价页面"],
            "de": [
                "den Abrechnungs-Launch",
                "den Suchumbau",
                "das App-Release",
                "die Datenmigration",
                "das Sicherheitsaudit",
                "die Preisseite",
            ],
            "es": [
                "lanzamiento de facturación",
                "rediseño del buscador",
                "nuevo lanzamiento móvil",
                "proyecto de migración de datos",
                "informe de auditoría de seguridad",
                "rediseño de la página de precios",
            ],
        },
        "en": {
            "state": "The deadline for the {e} is {old}.",
            "marked": "Heads up: the {e} deadline moved to {new}, so we have more time now.",
            "plain": "Just confirming the {e} deadline: {new}, the team agreed on it today.",
            "now": "When is the deadline for the {e}?",
            "past": "What was the original deadline for the {e}?",
        },
        "zh": {
            "state": "{e}的截止日期是{old}。",
            "marked": "通知一下：{e}的截止日期改成{new}了，现在时间宽裕一些。",
            "plain": "确认一下{e}的截止日期：{new}，团队今天定下来的。",
            "now": "{e}的截止日期是哪天？",
            "past": "{e}最初的截止日期是哪天？",
        },
        "de": {
            "state": "Die Deadline für {e} ist der {old}.",
            "marked": "Kurze Info: die Deadline für {e} wurde auf den {new} verschoben, "
            "wir haben jetzt mehr Zeit.",
            "plain": "Zur Bestätigung, Deadline für {e}: {new}, das Team hat es heute beschlossen.",
            "now": "Wann ist die Deadline für {e}?",
            "past": "Was war die ursprüngliche Deadline für {e}?",
        },
        "es": {
            "state": "La fecha límite del {e} es el {old}.",
            "marked": "Aviso: la fecha límite del {e} se movió al {new}, ahora tenemos más tiempo.",
            "plain": "Confirmo la fecha límite del {e}: {new}, el equipo lo acordó hoy.",
            "now": "¿Cuál es la fecha límite del {e}?",
            "past": "¿Cuál era la fecha límite original del {e}?",
        },
    },
    "version": {
        "domain": "tech",
        "values": "version",
        "entities": {
            "en": ["Postgres", "Python", "Node", "Kubernetes", "Django", "Redis"],
            "zh": ["Postgres", "Python", "Node", "Kubernetes", "Django", "Redis"],
            "de": ["Postgres", "Python", "Node", "Kubernetes", "Django", "Redis"],
            "es": ["Postgres", "Python", "Node", "Kubernetes", "Django", "Redis"],
        },
        "en": {
            "state": "Our production cluster runs {e} {old}.",
            "marked": "We upgraded production to {e} {new} last night, no longer on {old}.",
            "plain": "For the record, production runs {e} {new} and staging matches it.",
            "now": "Which {e} version runs in production?",
            "past": "Which {e} version did production run before the upgrade?",
        },
        "zh": {
            "state": "我们生产环境用的是{e} {old}。",
            "marked": "昨晚生产环境升级到了{e} {new}，不再用{old}了。",
            "plain": "备注一下，生产环境是{e} {new}，预发环境也一样。",
            "now": "生产环境用的是哪个版本的{e}？",
            "past": "升级之前生产环境用的是哪个版本的{e}？",
        },
        "de": {
            "state": "Unser Produktionscluster läuft mit {e} {old}.",
            "marked": "Wir haben die Produktion gestern Nacht auf {e} {new} aktualisiert, "
            "nicht mehr {old}.",
            "plain": "Fürs Protokoll: die Produktion läuft mit {e} {new}, Staging ebenso.",
            "now": "Welche {e}-Version läuft in der Produktion?",
            "past": "Welche {e}-Version lief vor dem Update in der Produktion?",
        },
        "es": {
            "state": "Nuestro clúster de producción usa {e} {old}.",
            "marked": "Anoche actualizamos producción a {e} {new}, ya no usamos {old}.",
            "plain": "Para que conste, producción usa {e} {new} y staging igual.",
            "now": "¿Qué versión de {e} usa producción?",
            "past": "¿Qué versión de {e} usaba producción antes de actualizar?",
        },
    },
    "city": {
        "domain": "personal",
        "values": "city",
        "entities": {
            "en": ["My sister", "My brother", "My friend Ana", "My cousin Leo", "My aunt"],
            "zh": ["我姐姐", "我哥哥", "我朋友安娜", "我表弟小李", "我姑姑"],
            "de": [
                "Meine Schwester",
                "Mein Bruder",
                "Meine Freundin Ana",
                "Mein Cousin Leo",
                "Meine Tante",
            ],
            "es": ["Mi hermana", "Mi hermano", "Mi amiga Ana", "Mi primo Leo", "Mi tía"],
        },
        "en": {
            "state": "{e} lives in {old}, close to the old town.",
            "marked": "{e} moved to {new} last month, no longer living in {old}.",
            "plain": "{e} lives in {new}; I visited this weekend.",
            "now": "Where does {e_low} live?",
            "past": "Where did {e_low} live before?",
        },
        "zh": {
            "state": "{e}住在{old}，离老城区很近。",
            "marked": "{e}上个月搬到{new}了，已经不在{old}了。",
            "plain": "{e}住在{new}，这周末我去看过了。",
            "now": "{e}住在哪里？",
            "past": "{e}以前住在哪里？",
        },
        "de": {
            "state": "{e} wohnt in {old}, nah an der Altstadt.",
            "marked": "{e} ist letzten Monat nach {new} umgezogen, nicht mehr in {old}.",
            "plain": "{e} wohnt in {new}; ich war am Wochenende dort zu Besuch.",
            "now": "Wo wohnt {e_low}?",
            "past": "Wo hat {e_low} früher gewohnt?",
        },
        "es": {
            "state": "{e} vive en {old}, cerca del casco antiguo.",
            "marked": "{e} se mudó a {new} el mes pasado, ya no vive en {old}.",
            "plain": "{e} vive en {new}; visité su casa este fin de semana.",
            "now": "¿Dónde vive {e_low}?",
            "past": "¿Dónde vivía {e_low} antes?",
        },
    },
    "dose": {
        "domain": "health",
        "values": "dose",
        "entities": {
            "en": ["vitamin D", "magnesium", "iron", "omega-3", "zinc"],
            "zh": ["维生素D", "镁片", "铁剂", "鱼油", "锌片"],
            "de": ["Vitamin D", "Magnesium", "Eisen", "Omega-3", "Zink"],
            "es": ["vitamina D", "magnesio", "hierro", "omega-3", "zinc"],
        },
        "en": {
            "state": "My doctor put me on {old} of {e} every day.",
            "marked": "The doctor changed my {e} dose: I take {new} a day now instead of {old}.",
            "plain": "Daily {e}: {new}, as the doctor said at the checkup.",
            "now": "How much {e} do I take a day?",
            "past": "How much {e} did I take at first?",
        },
        "zh": {
            "state": "医生让我每天吃{old}的{e}。",
            "marked": "医生把{e}的剂量改成每天{new}了，不再是{old}。",
            "plain": "每天的{e}：{new}，体检时医生说的。",
            "now": "我每天吃多少{e}？",
            "past": "我最开始每天吃多少{e}？",
        },
        "de": {
            "state": "Mein Arzt hat mir {old} {e} pro Tag verschrieben.",
            "marked": "Der Arzt hat die {e}-Dosis geändert: jetzt {new} am Tag statt {old}.",
            "plain": "{e} täglich: {new}, so hat es der Arzt beim Check-up gesagt.",
            "now": "Wie viel {e} nehme ich am Tag?",
            "past": "Wie viel {e} habe ich anfangs genommen?",
        },
        "es": {
            "state": "Mi médico me recetó {old} de {e} al día.",
            "marked": "El médico cambió la dosis de {e}: ahora tomo {new} al día en vez de {old}.",
            "plain": "{e} diario: {new}, como dijo el médico en la revisión.",
            "now": "¿Cuánto {e} tomo al día?",
            "past": "¿Cuánto {e} tomaba al principio?",
        },
    },
    "weekday": {
        "domain": "hobby",
        "values": "weekday",
        "entities": {
            "en": ["climbing", "swimming", "yoga", "choir practice", "pottery class"],
            "zh": ["攀岩", "游泳", "瑜伽", "合唱排练", "陶艺课"],
            "de": ["Klettern", "Schwimmen", "Yoga", "Chorprobe", "Töpferkurs"],
            "es": ["escalada", "natación", "yoga", "ensayo del coro", "clase de cerámica"],
        },
        "en": {
            "state": "I have {e} every {old} evening.",
            "marked": "I switched {e} to {new} evenings, {old} did not work with my new shifts.",
            "plain": "{e} is on {new} evenings, I booked the whole season.",
            "now": "Which evening do I have {e}?",
            "past": "Which evening did I have {e} originally?",
        },
        "zh": {
            "state": "我每个{old}晚上去{e}。",
            "marked": "我把{e}换到{new}晚上了，{old}和新排班冲突。",
            "plain": "{e}在{new}晚上，我订了整季。",
            "now": "我哪天晚上去{e}？",
            "past": "我原来哪天晚上去{e}？",
        },
        "de": {
            "state": "Ich habe jeden {old}abend {e}.",
            "marked": "Ich habe {e} auf {new}abend gelegt, {old} passt nicht mehr zu meinen "
            "neuen Schichten.",
            "plain": "{e} ist am {new}abend, ich habe die ganze Saison gebucht.",
            "now": "An welchem Abend habe ich {e}?",
            "past": "An welchem Abend hatte ich ursprünglich {e}?",
        },
        "es": {
            "state": "Tengo {e} todos los {old} por la tarde.",
            "marked": "Cambié {e} a los {new}, los {old} no encajan con mis nuevos turnos.",
            "plain": "{e} es los {new} por la tarde, reservé toda la temporada.",
            "now": "¿Qué día tengo {e}?",
            "past": "¿Qué día tenía {e} al principio?",
        },
    },
    "flight": {
        "domain": "travel",
        "values": "date",
        "entities": {
            "en": ["Lisbon", "Tokyo", "Chicago", "Nairobi", "Oslo", "Lima"],
            "zh": ["里斯本", "东京", "芝加哥", "内罗毕", "奥斯陆", "利马"],
            "de": ["Lissabon", "Tokio", "Chicago", "Nairobi", "Oslo", "Lima"],
            "es": ["Lisboa", "Tokio", "Chicago", "Nairobi", "Oslo", "Lima"],
        },
        "en": {
            "state": "My flight to {e} is on {old}, window seat booked.",
            "marked": "I rebooked the {e} flight, it is now on {new} instead.",
            "plain": "Flight to {e}: {new}, checked in online already.",
            "now": "When is my flight to {e}?",
            "past": "When was my flight to {e} first booked for?",
        },
        "zh": {
            "state": "我飞{e}的航班在{old}，订了靠窗的座位。",
            "marked": "我改签了飞{e}的航班，现在是{new}。",
            "plain": "飞{e}的航班：{new}，已经在线值机了。",
            "now": "我飞{e}的航班是哪天？",
            "past": "我飞{e}的航班最初订的是哪天？",
        },
        "de": {
            "state": "Mein Flug nach {e} ist am {old}, Fensterplatz gebucht.",
            "marked": "Ich habe den Flug nach {e} umgebucht, er ist jetzt am {new}.",
            "plain": "Flug nach {e}: {new}, online schon eingecheckt.",
            "now": "Wann ist mein Flug nach {e}?",
            "past": "Für wann war mein Flug nach {e} zuerst gebucht?",
        },
        "es": {
            "state": "Mi vuelo a {e} es el {old}, con asiento de ventanilla.",
            "marked": "Cambié el vuelo a {e}, ahora es el {new}.",
            "plain": "Vuelo a {e}: {new}, ya hice el check-in en línea.",
            "now": "¿Cuándo es mi vuelo a {e}?",
            "past": "¿Para cuándo estaba reservado al principio mi vuelo a {e}?",
        },
    },
    "budget": {
        "domain": "finance",
        "values": "amount",
        "entities": {
            "en": ["groceries", "marketing", "cloud hosting", "travel", "childcare"],
            "zh": ["买菜", "市场推广", "云服务器", "差旅", "托儿"],
            "de": ["Lebensmittel", "Marketing", "Cloud-Hosting", "Reisen", "Kinderbetreuung"],
            "es": ["comida", "marketing", "alojamiento en la nube", "viajes", "guardería"],
        },
        "en": {
            "state": "Our monthly budget for {e} is {old} euros.",
            "marked": "We raised the {e} budget to {new} euros a month, {old} was too tight.",
            "plain": "Monthly {e} budget: {new} euros, per the spreadsheet.",
            "now": "What is our monthly budget for {e}?",
            "past": "What was our monthly budget for {e} before?",
        },
        "zh": {
            "state": "我们每月{e}的预算是{old}欧元。",
            "marked": "我们把{e}的预算调整为每月{new}欧元，{old}太紧了。",
            "plain": "每月{e}预算：{new}欧元，按表格来。",
            "now": "我们每月{e}的预算是多少？",
            "past": "我们以前每月{e}的预算是多少？",
        },
        "de": {
            "state": "Unser monatliches Budget für {e} liegt bei {old} Euro.",
            "marked": "Wir haben das Budget für {e} auf {new} Euro im Monat erhöht, {old} war "
            "zu knapp.",
            "plain": "Monatliches Budget {e}: {new} Euro, laut Tabelle.",
            "now": "Wie hoch ist unser monatliches Budget für {e}?",
            "past": "Wie hoch war unser monatliches Budget für {e} vorher?",
        },
        "es": {
            "state": "Nuestro presupuesto mensual para {e} es de {old} euros.",
            "marked": "Subimos el presupuesto de {e} a {new} euros al mes, {old} era muy justo.",
            "plain": "Presupuesto mensual de {e}: {new} euros, según la hoja de cálculo.",
            "now": "¿Cuál es nuestro presupuesto mensual para {e}?",
            "past": "¿Cuál era antes nuestro presupuesto mensual para {e}?",
        },
    },
    "employer": {
        "domain": "people",
        "values": "company",
        "entities": {
            "en": ["Priya", "Marco", "Lena", "Tomás", "Yuki"],
            "zh": ["王芳", "李强", "陈静", "赵磊", "刘洋"],
            "de": ["Priya", "Marco", "Lena", "Tomás", "Yuki"],
            "es": ["Priya", "Marco", "Lena", "Tomás", "Yuki"],
        },
        "en": {
            "state": "{e} works at {old} as a data engineer.",
            "marked": "{e} just started a new job at {new}, left {old} last week.",
            "plain": "{e} works at {new} now, on the data platform team.",
            "now": "Where does {e} work?",
            "past": "Where did {e} work before?",
        },
        "zh": {
            "state": "{e}在{old}做数据工程师。",
            "marked": "{e}刚换了工作，去了{new}，上周从{old}离职了。",
            "plain": "{e}在{new}上班，做数据平台。",
            "now": "{e}在哪家公司工作？",
            "past": "{e}以前在哪家公司工作？",
        },
        "de": {
            "state": "{e} arbeitet bei {old} als Data Engineer.",
            "marked": "{e} hat gerade bei {new} angefangen, letzte Woche bei {old} aufgehört.",
            "plain": "{e} arbeitet bei {new}, im Datenplattform-Team.",
            "now": "Wo arbeitet {e}?",
            "past": "Wo hat {e} früher gearbeitet?",
        },
        "es": {
            "state": "{e} trabaja en {old}, en el área de datos.",
            "marked": "{e} empezó un trabajo nuevo en {new}, dejó {old} la semana pasada.",
            "plain": "{e} trabaja en {new}, en el equipo de plataforma de datos.",
            "now": "¿Dónde trabaja {e}?",
            "past": "¿Dónde trabajaba {e} antes?",
        },
    },
    "tool": {
        "domain": "tech",
        "values": "ci",
        "entities": {
            "en": [
                "the API service",
                "the web app",
                "the billing worker",
                "the docs site",
                "the mobile backend",
            ],
            "zh": ["API服务", "网页应用", "计费任务", "文档站点", "移动后端"],
            "de": [
                "den API-Dienst",
                "die Web-App",
                "den Abrechnungs-Worker",
                "die Doku-Seite",
                "das Mobile-Backend",
            ],
            "es": [
                "servicio API",
                "portal web",
                "proceso de facturación",
                "sitio de documentación",
                "backend móvil",
            ],
        },
        "en": {
            "state": "CI for {e} runs on {old}.",
            "marked": "We moved CI for {e} from {old} to {new}; the old pipelines are off.",
            "plain": "CI for {e}: {new}, the badge in the README links there.",
            "now": "Which CI system builds {e}?",
            "past": "Which CI system did {e} use first?",
        },
        "zh": {
            "state": "{e}的持续集成跑在{old}上。",
            "marked": "{e}的持续集成从{old}迁到{new}了，旧流水线已经关掉。",
            "plain": "{e}的持续集成：{new}，README里的徽章链接到那里。",
            "now": "{e}的持续集成用的是什么系统？",
            "past": "{e}最初的持续集成用的是什么系统？",
        },
        "de": {
            "state": "Die CI für {e} läuft auf {old}.",
            "marked": "Wir haben die CI für {e} von {old} zu {new} umgezogen; die alten "
            "Pipelines sind aus.",
            "plain": "CI für {e}: {new}, das Badge in der README verlinkt dorthin.",
            "now": "Welches CI-System baut {e}?",
            "past": "Welches CI-System wurde für {e} zuerst benutzt?",
        },
        "es": {
            "state": "La integración continua del {e} corre en {old}.",
            "marked": "Pasamos la integración continua del {e} de {old} a {new}; los "
            "pipelines viejos están apagados.",
            "plain": "Integración continua del {e}: {new}, el distintivo del README enlaza allí.",
            "now": "¿Qué sistema de integración continua compila el {e}?",
            "past": "¿Qué sistema de integración continua usó primero el {e}?",
        },
    },
    "trip": {
        "domain": "plans",
        "values": "city",
        "entities": {
            "en": [
                "summer holiday",
                "team offsite",
                "anniversary trip",
                "family reunion",
                "ski week",
            ],
            "zh": ["暑假旅行", "团队团建", "纪念日旅行", "家庭聚会", "滑雪周"],
            "de": [
                "den Sommerurlaub",
                "das Team-Offsite",
                "die Jahrestagsreise",
                "das Familientreffen",
                "die Skiwoche",
            ],
            "es": [
                "el viaje de verano",
                "el retiro del equipo",
                "el viaje de aniversario",
                "la reunión familiar",
                "la semana de esquí",
            ],
        },
        "en": {
            "state": "We're planning the {e} in {old} this year.",
            "marked": "We cancelled {old}; the {e} will be in {new} instead.",
            "plain": "The {e} is in {new}, the rooms are booked.",
            "now": "Where is the {e} going to be?",
            "past": "Where did we first plan the {e}?",
        },
        "zh": {
            "state": "我们今年的{e}打算去{old}。",
            "marked": "{old}取消了，{e}改成去{new}。",
            "plain": "{e}去{new}，房间已经订好了。",
            "now": "{e}去哪里？",
            "past": "{e}最初计划去哪里？",
        },
        "de": {
            "state": "Unser Ziel für {e} ist dieses Jahr {old}.",
            "marked": "Wir haben {old} abgesagt; Ziel für {e} ist stattdessen {new}.",
            "plain": "Ziel für {e}: {new}, die Zimmer sind gebucht.",
            "now": "Was ist unser Ziel für {e}?",
            "past": "Was war zuerst unser Ziel für {e}?",
        },
        "es": {
            "state": "Este año planeamos {e} en {old}.",
            "marked": "Cancelamos {old}; {e} será en {new} en su lugar.",
            "plain": "Para {e}: {new}, las habitaciones están reservadas.",
            "now": "¿Dónde será {e}?",
            "past": "¿Dónde planeamos primero {e}?",
        },
    },
}

VALUES: dict[str, dict[str, list[str]]] = {
    "city": {
        "en": [
            "Porto",
            "Valencia",
            "Munich",
            "Lyon",
            "Krakow",
            "Bergen",
            "Seville",
            "Graz",
            "Utrecht",
            "Turin",
            "Gdansk",
            "Bologna",
        ],
        "zh": [
            "波尔图",
            "瓦伦西亚",
            "慕尼黑",
            "里昂",
            "克拉科夫",
            "卑尔根",
            "塞维利亚",
            "格拉茨",
            "乌得勒支",
            "都灵",
            "格但斯克",
            "博洛尼亚",
        ],
        "de": [
            "Porto",
            "Valencia",
            "München",
            "Lyon",
            "Krakau",
            "Bergen",
            "Sevilla",
            "Graz",
            "Utrecht",
            "Turin",
            "Danzig",
            "Bologna",
        ],
        "es": [
            "Oporto",
            "Valencia",
            "Múnich",
            "Lyon",
            "Cracovia",
            "Bergen",
            "Sevilla",
            "Graz",
            "Utrecht",
            "Turín",
            "Gdansk",
            "Bolonia",
        ],
    },
    "company": {
        "en": [
            "Northwind",
            "Globex",
            "Initech",
            "Umbrella Labs",
            "Stark Analytics",
            "Acme Robotics",
            "Hooli",
            "Vandelay",
        ],
        "zh": [
            "北风公司",
            "环球科技",
            "英特科",
            "伞形实验室",
            "斯塔克分析",
            "极客机器人",
            "胡里公司",
            "范德雷",
        ],
    },
    "ci": {
        "en": [
            "Jenkins",
            "GitHub Actions",
            "GitLab CI",
            "CircleCI",
            "Buildkite",
            "Drone",
            "TeamCity",
        ],
    },
}


def values(kind: str, lang: str, rng: random.Random) -> tuple[str, str]:
    """An (old, new) pair of distinct values of ``kind``, written in ``lang``."""
    if kind == "date":
        month = rng.randint(2, 11)
        day, later = rng.sample(range(3, 27), 2)
        month2 = month + rng.choice((0, 1))
        return date_text(lang, month, day), date_text(lang, month2, later)
    if kind == "version":
        major = rng.randint(3, 17)
        minor = rng.randint(0, 9)
        return f"{major}.{minor}", f"{major + rng.randint(1, 2)}.{rng.randint(0, 9)}"
    if kind == "dose":
        a, b = rng.sample([250, 400, 500, 800, 1000, 1200, 2000], 2)
        return f"{a} mg", f"{b} mg"
    if kind == "amount":
        a, b = sorted(rng.sample(range(3, 40), 2))
        return str(a * 50), str(b * 50)
    if kind == "weekday":
        a, b = rng.sample(range(5), 2)
        return WEEKDAYS[lang][a], WEEKDAYS[lang][b]
    pool = VALUES[kind].get(lang) or VALUES[kind]["en"]
    a, b = rng.sample(pool, 2)
    return a, b


ACKS = {
    "en": [
        "Noted.",
        "Got it, thanks for telling me.",
        "Okay, I'll keep that in mind.",
        "Thanks for the update.",
    ],
    "zh": ["好的，记下了。", "收到，谢谢告诉我。", "明白，我会记住的。", "谢谢你的更新。"],
    "de": [
        "Notiert.",
        "Alles klar, danke für die Info.",
        "Okay, ich merke es mir.",
        "Danke für das Update.",
    ],
    "es": [
        "Anotado.",
        "Entendido, gracias por avisar.",
        "Vale, lo tendré en cuenta.",
        "Gracias por la actualización.",
    ],
}
SMALL_TALK = {
    "en": [
        (
            "Can you suggest a quick dinner with chickpeas?",
            "Try a chickpea curry: onion, garlic, tomatoes, coconut milk and spices; it takes "
            "about twenty minutes and keeps well for lunch the next day.",
        ),
        (
            "How do I stop my sourdough from being so dense?",
            "Let it proof longer in a warm spot, use a stronger starter at its peak, and shape "
            "it with more surface tension before the final rise.",
        ),
        (
            "Any tips for sleeping better?",
            "Keep a regular bedtime, dim the lights an hour before, skip caffeine after noon "
            "and keep the room cool and dark.",
        ),
        (
            "What should I read on the train this week?",
            "If you liked the last novel, try a short story collection: easy to pick up and "
            "put down between stations.",
        ),
        (
            "Remind me how to undo the last git commit but keep the changes.",
            "Use git reset --soft HEAD~1: the commit goes away and its changes stay staged.",
        ),
        (
            "My basil plant keeps wilting, what am I doing wrong?",
            "Basil likes sun and evenly moist soil; water at the base in the morning and pinch "
            "off the flowers so it keeps growing leaves.",
        ),
    ],
    "zh": [
        (
            "推荐一个用鹰嘴豆做的快手晚餐？",
            "可以做鹰嘴豆咖喱：洋葱、大蒜、番茄、椰奶和香料，二十分钟就好，第二天带饭也不错。",
        ),
        (
            "我的酸面包为什么总是很实？",
            "发酵时间再长一点，放在温暖的地方，用活跃期的酵头，整形时表面绷紧一些。",
        ),
        (
            "有什么改善睡眠的建议吗？",
            "固定作息时间，睡前一小时调暗灯光，中午以后不喝咖啡，房间保持凉爽黑暗。",
        ),
        (
            "这周在地铁上读什么书好？",
            "如果你喜欢上一本小说，可以试试短篇小说集，站与站之间随时拿起放下。",
        ),
        (
            "怎么撤销上一次 git 提交但保留改动？",
            "用 git reset --soft HEAD~1：提交撤销了，改动仍然在暂存区。",
        ),
        (
            "我的罗勒总是蔫，是哪里做错了？",
            "罗勒喜欢阳光和均匀湿润的土壤，早上从根部浇水，把花摘掉让它继续长叶子。",
        ),
    ],
    "de": [
        (
            "Hast du eine Idee für ein schnelles Abendessen mit Kichererbsen?",
            "Ein Kichererbsen-Curry: Zwiebel, Knoblauch, Tomaten, Kokosmilch und Gewürze, in "
            "zwanzig Minuten fertig und am nächsten Tag noch gut.",
        ),
        (
            "Wie wird mein Sauerteigbrot lockerer?",
            "Länger an einem warmen Ort gehen lassen, den Sauerteig auf dem Höhepunkt nehmen "
            "und beim Formen mehr Spannung aufbauen.",
        ),
        (
            "Hast du Tipps für besseren Schlaf?",
            "Feste Schlafenszeit, eine Stunde vorher das Licht dimmen, nach Mittag kein Kaffee "
            "und ein kühles, dunkles Zimmer.",
        ),
        (
            "Was soll ich diese Woche im Zug lesen?",
            "Wenn dir der letzte Roman gefallen hat, probier einen Band mit Kurzgeschichten.",
        ),
        (
            "Wie mache ich den letzten Git-Commit rückgängig und behalte die Änderungen?",
            "Mit git reset --soft HEAD~1: der Commit ist weg, die Änderungen bleiben gestaged.",
        ),
        (
            "Mein Basilikum lässt ständig die Blätter hängen, was mache ich falsch?",
            "Basilikum mag Sonne und gleichmäßig feuchte Erde; morgens von unten gießen und die "
            "Blüten auszupfen.",
        ),
    ],
    "es": [
        (
            "¿Me sugieres una cena rápida con garbanzos?",
            "Un curry de garbanzos: cebolla, ajo, tomate, leche de coco y especias; en veinte "
            "minutos está listo y al día siguiente sigue bueno.",
        ),
        (
            "¿Por qué mi pan de masa madre sale tan denso?",
            "Déjalo fermentar más tiempo en un sitio cálido, usa la masa madre en su punto y "
            "dale más tensión al formar.",
        ),
        (
            "¿Algún consejo para dormir mejor?",
            "Horario fijo, luces tenues una hora antes, nada de café después del mediodía y un "
            "cuarto fresco y oscuro.",
        ),
        (
            "¿Qué leo en el tren esta semana?",
            "Si te gustó la última novela, prueba un libro de cuentos: fácil de dejar y retomar.",
        ),
        (
            "¿Cómo deshago el último commit de git sin perder los cambios?",
            "Con git reset --soft HEAD~1: el commit desaparece y los cambios quedan preparados.",
        ),
        (
            "Mi albahaca se marchita siempre, ¿qué hago mal?",
            "A la albahaca le gusta el sol y la tierra húmeda; riega por la base por la mañana "
            "y quita las flores.",
        ),
    ],
}


def split_templates() -> dict[str, str]:
    """Template name -> ``dev`` or ``test`` (a fixed-seed split, 6 dev / 4 test)."""
    names = sorted(TEMPLATES)
    random.Random(SPLIT_SEED).shuffle(names)
    return {n: ("dev" if i < 6 else "test") for i, n in enumerate(names)}


def _fill(text: str, e: str, old: str, new: str) -> str:
    possessive = e.split()[0] in ("My", "Mi", "Mein", "Meine")
    low = e[0].lower() + e[1:] if possessive else e
    return text.format(e=e, e_low=low, old=old, new=new)


def build(seed: int = SEED) -> dict[str, Any]:
    """Every history (one per language) with its sessions, and every case."""
    rng = random.Random(seed)
    split = split_templates()
    out: dict[str, Any] = {"histories": [], "cases": []}
    for lang in ("en", "zh", "de", "es"):
        facts = []
        for name in sorted(TEMPLATES):
            tpl = TEMPLATES[name]
            ents = list(tpl["entities"][lang])
            rng.shuffle(ents)
            for n in range(PER_TEMPLATE):
                e = ents[n % len(ents)]
                old, new = values(tpl["values"], lang, rng)
                style = "marked" if n % 2 == 0 else "plain"
                texts = tpl[lang]
                facts.append(
                    {
                        "id": f"{lang}-{name}-{n}",
                        "source": name,
                        "domain": tpl["domain"],
                        "lang": lang,
                        "split": split[name],
                        "style": style,
                        "echo": n % 3 == 1,
                        "state": _fill(texts["state"], e, old, new),
                        "update": _fill(texts[style], e, old, new),
                        "now": _fill(texts["now"], e, old, new),
                        "past": _fill(texts["past"], e, old, new),
                        "old": old,
                        "new": new,
                    }
                )
        out["histories"].append(_history(lang, facts, rng))
        out["cases"] += facts
    return out


def _history(lang: str, facts: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """One user's year: 60 sessions, every fact stated in one and updated in a later one
    (3 to 20 sessions later), small talk around them."""
    count = 60
    slots: list[list[tuple[str, dict[str, Any]]]] = [[] for _ in range(count)]
    for f in facts:
        first = rng.randrange(0, count - 4)
        later = min(count - 1, first + rng.randint(3, 20))
        slots[first].append(("state", f))
        slots[later].append(("update", f))
    sessions = []
    day = START
    for i, items in enumerate(slots):
        day = day + dt.timedelta(days=rng.randint(4, 8), hours=rng.randint(-2, 8))
        messages: list[dict[str, Any]] = []
        talk = SMALL_TALK[lang]
        opener = talk[rng.randrange(len(talk))]
        messages.append({"role": "user", "content": opener[0]})
        messages.append({"role": "assistant", "content": opener[1]})
        rng.shuffle(items)
        for what, f in items:
            key = f"{f['id']}:{what}"
            messages.append({"role": "user", "content": f[what], "key": key})
            ack = ACKS[lang][rng.randrange(len(ACKS[lang]))]
            if what == "state" and f["echo"]:
                reply = f"{ack} {f['state']}"
                messages.append({"role": "assistant", "content": reply, "key": key + "-echo"})
            else:
                messages.append({"role": "assistant", "content": ack})
        sid = f"upd-{lang}-{i:02d}"
        when = day
        for m in messages:
            m["time"] = when.isoformat(timespec="minutes")
            when += dt.timedelta(minutes=rng.randint(1, 4))
            if "key" in m:
                facts_by = {f["id"]: f for _, f in items}
                fid, what = m["key"].split(":")
                facts_by[fid][what.replace("-echo", "") + "_time"] = m["time"]
        sessions.append({"id": sid, "messages": messages})
    for f in facts:
        f["stale_keys"] = [f"{f['id']}:state"] + ([f"{f['id']}:state-echo"] if f["echo"] else [])
        f["update_key"] = f"{f['id']}:update"
        # a day between the statement and the update: "as of" that day, the old value held
        a = dt.datetime.fromisoformat(f["state_time"])
        b = dt.datetime.fromisoformat(f["update_time"])
        f["as_of"] = (a + (b - a) / 2).date().isoformat()
    return {"lang": lang, "sessions": sessions}


def main() -> None:
    data = build()
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    cases = data["cases"]
    dev = sum(c["split"] == "dev" for c in cases)
    print(f"{len(cases)} cases ({dev} dev, {len(cases) - dev} test) -> {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
