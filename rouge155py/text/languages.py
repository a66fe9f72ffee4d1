"""ISO 639 language codes: what ``--lang`` accepts, and the tags (BCP 47, locales) it reads.

The codes are those of ISO 639-1 (two letters) and ISO 639-2 (three letters, terminological
and bibliographic); a three-letter code of a language that has a two-letter one is read as
that one (``deu``, ``ger`` -> ``de``).
"""

from __future__ import annotations

import re

from ..errors import UsageError

__all__ = ["ISO_639_1", "language_code"]

#: The two-letter codes (ISO 639-1).
ISO_639_1 = frozenset(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da
    de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz
    ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln
    lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi
    pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti
    tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
    """.split()
)

# ISO 639-2 codes of the languages above -> their two-letter code: "T code:B code:two letters".
_WITH_TWO = """
    aar::aa abk::ab afr::af aka::ak amh::am ara::ar arg::an asm::as ava::av ave::ae aym::ay aze::az
    bak::ba bam::bm bel::be ben::bn bih::bh bis::bi bod:tib:bo bos::bs bre::br bul::bg cat::ca
    ces:cze:cs cha::ch che::ce chu::cu chv::cv cor::kw cos::co cre::cr cym:wel:cy dan::da deu:ger:de
    div::dv dzo::dz ell:gre:el eng::en epo::eo est::et eus:baq:eu ewe::ee fao::fo fas:per:fa fij::fj
    fin::fi fra:fre:fr fry::fy ful::ff gla::gd gle::ga glg::gl glv::gv grn::gn guj::gu hat::ht
    hau::ha heb::he her::hz hin::hi hmo::ho hrv::hr hun::hu hye:arm:hy ibo::ig ido::io iii::ii
    iku::iu ile::ie ina::ia ind::id ipk::ik isl:ice:is ita::it jav::jv jpn::ja kal::kl kan::kn
    kas::ks kat:geo:ka kau::kr kaz::kk khm::km kik::ki kin::rw kir::ky kom::kv kon::kg kor::ko
    kua::kj kur::ku lao::lo lat::la lav::lv lim::li lin::ln lit::lt ltz::lb lub::lu lug::lg mah::mh
    mal::ml mar::mr mkd:mac:mk mlg::mg mlt::mt mon::mn mri:mao:mi msa:may:ms mya:bur:my nau::na
    nav::nv nbl::nr nde::nd ndo::ng nep::ne nld:dut:nl nno::nn nob::nb nor::no nya::ny oci::oc
    oji::oj ori::or orm::om oss::os pan::pa pli::pi pol::pl por::pt pus::ps que::qu roh::rm
    ron:rum:ro run::rn rus::ru sag::sg san::sa sin::si slk:slo:sk slv::sl sme::se smo::sm sna::sn
    snd::sd som::so sot::st spa::es sqi:alb:sq srd::sc srp::sr ssw::ss sun::su swa::sw swe::sv
    tah::ty tam::ta tat::tt tel::te tgk::tg tgl::tl tha::th tir::ti ton::to tsn::tn tso::ts tuk::tk
    tur::tr twi::tw uig::ug ukr::uk urd::ur uzb::uz ven::ve vie::vi vol::vo wln::wa wol::wo xho::xh
    yid::yi yor::yo zha::za zho:chi:zh zul::zu
""".split()

# ISO 639-2 codes of languages (and groups) without a two-letter code.
_THREE_ONLY = frozenset(
    """
    ace ach ada ady afa afh ain akk ale alg alt ang anp apa arc arn arp art arw ast ath aus awa bad
    bai bal ban bas bat bej bem ber bho bik bin bla bnt bra btk bua bug byn cad cai car cau ceb cel
    chb chg chk chm chn cho chp chr chy cmc cnr cop cpe cpf cpp crh crp csb cus dak dar day del den
    dgr din doi dra dsb dua dum dyu efi egy eka elx enm ewo fan fat fil fiu fon frm fro frr frs fur
    gaa gay gba gem gez gil gmh goh gon gor got grb grc gsw gwi hai haw hil him hit hmn hsb hup iba
    ijo ilo inc ine inh ira iro jbo jpr jrb kaa kab kac kam kar kaw kbd kha khi kho kmb kok kos kpe
    krc krl kro kru kum kut lad lah lam lez lol loz lua lui lun luo lus mad mag mai mak man map mas
    mdf mdr men mga mic min mis mkh mnc mni mno moh mos mul mun mus mwl mwr myn myv nah nai nap nds
    new nia nic niu nog non nqo nso nub nwc nym nyn nyo nzi osa ota oto paa pag pal pam pap pau peo
    phi phn pon pra pro raj rap rar roa rom rup sad sah sai sal sam sas sat scn sco sel sem sga sgn
    shn sid sio sit sla sma smi smj smn sms snk sog son srn srr ssa suk sus sux syc syr tai tem ter
    tet tig tiv tkl tlh tli tmh tog tpi tsi tum tup tut tvl tyv udm uga umb und vai vot wak wal war
    was wen xal yao yap ypk zap zbl zen zgh znd zun zxx zza
    """.split()
)

_THREE_TO_TWO = {
    code: two for entry in _WITH_TWO for *threes, two in [entry.split(":")] for code in threes if code
}
# Codes withdrawn from ISO 639-1 that locales still use (Java's iw_IL, in_ID), and ISO 639-3
# codes of individual languages that BCP 47 tags often carry: a macrolanguage's code where it
# has one (the Snowball stemmers go by it: arb -> ar), else the code itself.
_OTHER = {"iw": "he", "in": "id", "ji": "yi", "cmn": "zh", "arb": "ar", "pes": "fa", "zsm": "ms", "swh": "sw"}
_OTHER.update(dict.fromkeys(("yue", "wuu", "nan", "hak", "hsn", "gan"), ""))

# A tag: a language subtag, then subtags of up to 8 letters or digits after "-" or "_" (BCP 47:
# script, region, variants; a locale: pt_BR), and a locale's ".charset" or "@modifier".
_TAG = re.compile(r"([a-z]{2,3})((?:[-_][a-z0-9]{1,8})*)(?:\.[a-z0-9_-]*)?(?:@[a-z0-9_-]*)?")


def language_code(tag: str) -> str:
    """The ISO 639 code (two letters where there is one) of ``--lang``'s value: a code (``de``,
    ``deu``), a BCP 47 tag (``de-DE``, ``zh-Hans``, ``sr-Latn-RS``) or a locale (``pt_BR``,
    ``de_DE.UTF-8``); anything else, an unknown language included, is a :class:`UsageError`.
    """
    lowered = tag.strip().lower() if isinstance(tag, str) else ""
    found = _TAG.fullmatch(lowered)
    code = found.group(1) if found else ""
    code = _OTHER.get(code) or code
    if code in ISO_639_1 or code in _THREE_ONLY or code in _OTHER:
        return code
    if code in _THREE_TO_TWO:
        return _THREE_TO_TWO[code]
    what = "an unknown language code" if found else "not a language code"
    raise UsageError(
        f"--lang {tag!r}: {what}; it takes an ISO 639 code (de, ru, zh, deu) "
        "or a tag such as de-DE, pt_BR, zh-Hans"
    )
