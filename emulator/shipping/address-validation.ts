// US address validation: USPS Publication 28 standardization plus ZIP/city/state checks against
// the `zipcodes` npm data set (bundled, no download at run time) and the configured lists of
// multi-unit buildings and commercial addresses for DPV and the residential flag.

import { createRequire } from "node:module";

import type { EmulatorConfig } from "./config";
import { hashString, makeDigits } from "./ids";

interface ZipRecord {
  zip: string;
  city: string;
  state: string;
  country: string;
}
interface ZipcodesModule {
  lookup(zip: string): ZipRecord | undefined;
}
// `zipcodes` ships no types; createRequire keeps the narrow typing local to this module. It is
// loaded on first use: its data set is large and label-creation-only processes never need it.
let zipcodesModule: ZipcodesModule | null = null;
function getZipcodes(): ZipcodesModule {
  zipcodesModule ??= createRequire(import.meta.url)("zipcodes") as ZipcodesModule;
  return zipcodesModule;
}

/** Publication 28, Appendix C1: street suffixes (common forms). */
// prettier-ignore
const SUFFIXES: Record<string, string> = {
  ALLEY: "ALY", ALLY: "ALY", ANNEX: "ANX", ARCADE: "ARC", AVENUE: "AVE", AV: "AVE", AVEN: "AVE", AVENU: "AVE", AVN: "AVE",
  BAYOU: "BYU", BEACH: "BCH", BEND: "BND", BLUFF: "BLF", BOTTOM: "BTM", BOULEVARD: "BLVD", BOUL: "BLVD", BOULV: "BLVD",
  BRANCH: "BR", BRIDGE: "BRG", BROOK: "BRK", BYPASS: "BYP", CAMP: "CP", CANYON: "CYN", CAPE: "CPE", CAUSEWAY: "CSWY",
  CENTER: "CTR", CENTRE: "CTR", CIRCLE: "CIR", CIRCL: "CIR", CLIFF: "CLF", CLUB: "CLB", COMMON: "CMN", CORNER: "COR",
  COURSE: "CRSE", COURT: "CT", COVE: "CV", CREEK: "CRK", CRESCENT: "CRES", CROSSING: "XING", DALE: "DL", DAM: "DM",
  DIVIDE: "DV", DRIVE: "DR", DRIV: "DR", DRV: "DR", ESTATE: "EST", ESTATES: "ESTS", EXPRESSWAY: "EXPY", EXTENSION: "EXT",
  FALLS: "FLS", FERRY: "FRY", FIELD: "FLD", FIELDS: "FLDS", FLAT: "FLT", FORD: "FRD", FOREST: "FRST", FORGE: "FRG",
  FORK: "FRK", FORT: "FT", FREEWAY: "FWY", GARDEN: "GDN", GARDENS: "GDNS", GATEWAY: "GTWY", GLEN: "GLN", GREEN: "GRN",
  GROVE: "GRV", HARBOR: "HBR", HAVEN: "HVN", HEIGHTS: "HTS", HIGHWAY: "HWY", HILL: "HL", HILLS: "HLS", HOLLOW: "HOLW",
  ISLAND: "IS", JUNCTION: "JCT", KEY: "KY", KNOLL: "KNL", LAKE: "LK", LAKES: "LKS", LANDING: "LNDG", LANE: "LN",
  LIGHT: "LGT", LOOP: "LOOP", MALL: "MALL", MANOR: "MNR", MEADOW: "MDW", MEADOWS: "MDWS", MILL: "ML", MISSION: "MSN",
  MOUNT: "MT", MOUNTAIN: "MTN", MOTORWAY: "MTWY", OVERPASS: "OPAS", PARK: "PARK", PARKWAY: "PKWY", PARKWY: "PKWY",
  PKY: "PKWY", PASS: "PASS", PATH: "PATH", PIKE: "PIKE", PINE: "PNE", PINES: "PNES", PLACE: "PL", PLAIN: "PLN",
  PLAINS: "PLNS", PLAZA: "PLZ", POINT: "PT", PORT: "PRT", PRAIRIE: "PR", RANCH: "RNCH", RIDGE: "RDG", RIVER: "RIV",
  ROAD: "RD", ROUTE: "RTE", ROW: "ROW", RUN: "RUN", SHORE: "SHR", SHORES: "SHRS", SKYWAY: "SKWY", SPRING: "SPG",
  SPRINGS: "SPGS", SQUARE: "SQ", STATION: "STA", STREAM: "STRM", STREET: "ST", STR: "ST", STRT: "ST", SUMMIT: "SMT",
  TERRACE: "TER", TRACE: "TRCE", TRAIL: "TRL", TRAILER: "TRLR", TUNNEL: "TUNL", TURNPIKE: "TPKE", UNION: "UN",
  VALLEY: "VLY", VIADUCT: "VIA", VIEW: "VW", VILLAGE: "VLG", VILLE: "VL", VISTA: "VIS", WALK: "WALK", WAY: "WAY",
  WELLS: "WLS",
};
const SUFFIX_ABBREVIATIONS = new Set(Object.values(SUFFIXES));

/** Publication 28, Appendix B: directionals. */
// prettier-ignore
const DIRECTIONALS: Record<string, string> = {
  NORTH: "N", SOUTH: "S", EAST: "E", WEST: "W", NORTHEAST: "NE", NORTHWEST: "NW", SOUTHEAST: "SE", SOUTHWEST: "SW",
  N: "N", S: "S", E: "E", W: "W", NE: "NE", NW: "NW", SE: "SE", SW: "SW",
};

/** Publication 28, Appendix C2: secondary unit designators. */
// prettier-ignore
const UNIT_DESIGNATORS: Record<string, string> = {
  APARTMENT: "APT", APT: "APT", BASEMENT: "BSMT", BSMT: "BSMT", BUILDING: "BLDG", BLDG: "BLDG", DEPARTMENT: "DEPT",
  DEPT: "DEPT", FLOOR: "FL", FL: "FL", FRONT: "FRNT", FRNT: "FRNT", HANGAR: "HNGR", HNGR: "HNGR", KEY: "KEY",
  LOBBY: "LBBY", LBBY: "LBBY", LOT: "LOT", LOWER: "LOWR", LOWR: "LOWR", OFFICE: "OFC", OFC: "OFC", PENTHOUSE: "PH",
  PH: "PH", PIER: "PIER", REAR: "REAR", ROOM: "RM", RM: "RM", SIDE: "SIDE", SLIP: "SLIP", SPACE: "SPC", SPC: "SPC",
  STOP: "STOP", SUITE: "STE", STE: "STE", TRAILER: "TRLR", TRLR: "TRLR", UNIT: "UNIT", UPPER: "UPPR", UPPR: "UPPR",
  "#": "#",
};

// prettier-ignore
const ORDINALS: Record<string, string> = {
  FIRST: "1ST", SECOND: "2ND", THIRD: "3RD", FOURTH: "4TH", FIFTH: "5TH", SIXTH: "6TH", SEVENTH: "7TH",
  EIGHTH: "8TH", NINTH: "9TH", TENTH: "10TH",
};

function tokenize(line: string): string[] {
  return line
    .toUpperCase()
    .replace(/[.,]/g, " ")
    .replace(/#/g, " # ")
    .split(/\s+/)
    .filter((t) => t !== "");
}

/** "Apt. 4b" -> "APT 4B"; "#4" -> "# 4"; "4B" -> "# 4B". */
export function standardizeUnit(tokens: string[]): string | null {
  if (tokens.length === 0) return null;
  const [first, ...rest] = tokens;
  if (first === undefined) return null;
  const designator = UNIT_DESIGNATORS[first];
  if (designator === undefined) return ["#", ...tokens].join(" ");
  const remaining = rest.filter((t) => t !== "#");
  return [designator, ...remaining].join(" ");
}

/** Splits a street line into the standardized primary part and an inline unit, if any. */
export function standardizeStreet(line: string): { primary: string; unit: string | null } {
  const tokens = tokenize(line);
  // A unit designator after the house number and street name starts the secondary part.
  let unitStart = tokens.length;
  for (let i = 2; i < tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && UNIT_DESIGNATORS[t] !== undefined && !(t === "KEY" || t === "LOT" || t === "PIER")) {
      unitStart = i;
      break;
    }
  }
  const primaryTokens = tokens.slice(0, unitStart);
  const unit = standardizeUnit(tokens.slice(unitStart));
  // The suffix is the last suffix word of the primary part, possibly followed by a directional.
  let suffixIndex = -1;
  for (let i = primaryTokens.length - 1; i >= 1; i--) {
    const t = primaryTokens[i];
    if (t === undefined) continue;
    if (SUFFIXES[t] !== undefined || SUFFIX_ABBREVIATIONS.has(t)) {
      suffixIndex = i;
      break;
    }
    if (DIRECTIONALS[t] === undefined) break;
  }
  const out = primaryTokens.map((t, i) => {
    if (i === suffixIndex) return SUFFIXES[t] ?? t;
    const directional = DIRECTIONALS[t];
    // "100 North St" keeps NORTH as the street name: a directional right before the suffix
    // with no other name word is the name itself.
    if (directional !== undefined && !(i === 1 && suffixIndex === 2)) return directional;
    return ORDINALS[t] ?? t;
  });
  return { primary: out.join(" "), unit };
}

export interface ValidateAddressInput {
  street1: string;
  street2: string | null;
  city: string;
  state: string;
  zip: string;
}

export interface AddressValidationResult {
  address: {
    street1: string;
    street2: string | null;
    city: string;
    state: string;
    zip: string;
    zip4: string | null;
    country: "US";
  };
  zip4: string | null;
  carrier_route: string | null;
  dpv: { match_code: "Y" | "S" | "D" | "N"; deliverable: boolean; vacant: boolean };
  residential: boolean;
  messages: string[];
}

function matchesUnit(allowed: readonly string[], unit: string): boolean {
  const number = unit.split(" ").slice(1).join(" ");
  return allowed.some((u) => u === unit || (unit.startsWith("# ") && u.split(" ").slice(1).join(" ") === number));
}

export class AddressValidator {
  private readonly buildings: Map<string, { units: string[] | null }>;
  private readonly commercial: Set<string>;
  private readonly seed: number;

  constructor(config: EmulatorConfig) {
    this.seed = config.seed;
    this.buildings = new Map(
      config.address_validation.multi_unit_buildings.map((b) => [
        `${standardizeStreet(b.street1).primary}|${b.zip}`,
        { units: b.units ? b.units.map((u) => standardizeUnit(tokenize(u)) ?? u) : null },
      ]),
    );
    this.commercial = new Set(
      config.address_validation.commercial_addresses.map((a) => `${standardizeStreet(a.street1).primary}|${a.zip}`),
    );
  }

  /** Whether a (not necessarily standardized) address is a known commercial one. */
  isKnownCommercial(street1: string, zip: string): boolean {
    return this.commercial.has(`${standardizeStreet(street1).primary}|${zip.slice(0, 5)}`);
  }

  validate(input: ValidateAddressInput): AddressValidationResult {
    const messages: string[] = [];
    const street = standardizeStreet(input.street1);
    const unitFromLine2 =
      input.street2 !== null && input.street2.trim() !== "" ? standardizeUnit(tokenize(input.street2)) : null;
    const unit = unitFromLine2 ?? street.unit;
    const zip5 = input.zip.slice(0, 5);
    const state = input.state.trim().toUpperCase();
    let city = input.city.trim().toUpperCase().replace(/\s+/g, " ");
    const key = `${street.primary}|${zip5}`;

    let matchCode: "Y" | "S" | "D" | "N" = "Y";
    const record = getZipcodes().lookup(zip5);
    if (record === undefined || record.country !== "US") {
      matchCode = "N";
      messages.push("ZIP code not found");
    } else if (record.state !== state) {
      matchCode = "N";
      messages.push(`ZIP code ${zip5} is in ${record.state}, not ${state}`);
    } else if (record.city.toUpperCase() !== city) {
      messages.push(`City corrected from ${city} to ${record.city.toUpperCase()} (the ZIP code's city)`);
      city = record.city.toUpperCase();
    }
    const isPoBox = /^P ?O BOX \d+/.test(street.primary) || /^POST OFFICE BOX \d+/.test(street.primary);
    if (matchCode !== "N" && !isPoBox && !/^\d+[A-Z]?\b/.test(street.primary)) {
      matchCode = "N";
      messages.push("Primary number (house number) missing");
    }
    const building = this.buildings.get(key);
    if (matchCode !== "N" && building !== undefined) {
      if (unit === null) {
        matchCode = "D";
        messages.push("Building confirmed; apartment, suite or unit missing");
      } else if (building.units !== null && !matchesUnit(building.units, unit)) {
        matchCode = "S";
        messages.push(`Building confirmed; unit ${unit} not found`);
      }
    }
    const deliverable = matchCode === "Y" || matchCode === "S";
    const zip4 = matchCode === "N" ? null : makeDigits(this.seed, `zip4|${key}|${unit ?? ""}`, 4);
    const route =
      matchCode === "N"
        ? null
        : `${isPoBox ? "B" : "C"}${String(hashString(this.seed, `cr|${key}`) % 1000).padStart(3, "0")}`;
    const residential = !(this.commercial.has(key) || isPoBox || (unit !== null && unit.startsWith("STE ")));
    return {
      address: {
        street1: unitFromLine2 === null && street.unit !== null ? `${street.primary} ${street.unit}` : street.primary,
        street2: unitFromLine2,
        city,
        state,
        zip: zip5,
        zip4,
        country: "US",
      },
      zip4,
      carrier_route: route,
      dpv: { match_code: matchCode, deliverable, vacant: false },
      residential,
      messages,
    };
  }

  /** Sandbox keys get this: shaped like a real result, but nothing was checked. */
  mock(input: ValidateAddressInput): AddressValidationResult {
    const street = standardizeStreet(input.street1);
    const unit =
      input.street2 !== null && input.street2.trim() !== "" ? standardizeUnit(tokenize(input.street2)) : null;
    return {
      address: {
        street1: street.unit !== null ? `${street.primary} ${street.unit}` : street.primary,
        street2: unit,
        city: input.city.trim().toUpperCase(),
        state: input.state.trim().toUpperCase(),
        zip: input.zip.slice(0, 5),
        zip4: "0000",
        country: "US",
      },
      zip4: "0000",
      carrier_route: "C000",
      dpv: { match_code: "Y", deliverable: true, vacant: false },
      residential: true,
      messages: ["Sandbox key: mocked result, the address was not checked"],
    };
  }
}
