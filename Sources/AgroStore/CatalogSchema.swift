import Foundation

/// The layout of a catalog file.
///
/// Main tables hold what does not depend on language; every user-visible text lives in a
/// `<entity>_i18n` table keyed by the entity id and a locale, as in the original mobile app.
/// `name_key` columns hold the folded name (see `TextFolding.fold`) for sorting, the index
/// letter and lookups. Derived tables (`culture_ancestors`, `name_index`, `search_index`) are
/// filled when a catalog is finished, never by hand.
public enum CatalogSchema {
    /// Version of this layout. A program reads catalogs whose schema version is at most this.
    public static let version = 3

    /// The statements that create an empty catalog, in order.
    public static let statements: [String] = [
        """
        CREATE TABLE catalog_metadata (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE catalog_i18n (
          locale TEXT PRIMARY KEY NOT NULL,
          title TEXT,
          attribution TEXT
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE companies (
          id TEXT PRIMARY KEY NOT NULL
        ) WITHOUT ROWID
        """,
        i18n("company", fields: "name TEXT, name_key TEXT"),
        """
        CREATE TABLE statements (
          code TEXT PRIMARY KEY NOT NULL
        ) WITHOUT ROWID
        """,
        // Keyed by the statement's code, named statement_id like every other i18n key.
        """
        CREATE TABLE statement_i18n (
          statement_id TEXT NOT NULL REFERENCES statements(code),
          locale TEXT NOT NULL,
          text TEXT,
          PRIMARY KEY (statement_id, locale)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE substances (
          id TEXT PRIMARY KEY NOT NULL,
          iupac_name TEXT,
          cas_number TEXT,
          moa_scheme TEXT,
          moa_group TEXT
        ) WITHOUT ROWID
        """,
        i18n("substance", fields: "name TEXT, name_key TEXT, description TEXT"),
        // eppo_code (cultures and pests): the code in the EPPO Global Database ("TRZAW"). Since
        // schema 3; a reader of an older file reads none.
        """
        CREATE TABLE cultures (
          id TEXT PRIMARY KEY NOT NULL,
          latin_name TEXT,
          eppo_code TEXT
        ) WITHOUT ROWID
        """,
        i18n("culture", fields: "name TEXT, name_key TEXT, description TEXT"),
        """
        CREATE TABLE culture_parents (
          culture_id TEXT NOT NULL REFERENCES cultures(id),
          parent_id TEXT NOT NULL REFERENCES cultures(id),
          PRIMARY KEY (culture_id, parent_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX culture_parents_parent ON culture_parents(parent_id)",
        """
        CREATE TABLE culture_ancestors (
          culture_id TEXT NOT NULL REFERENCES cultures(id),
          ancestor_id TEXT NOT NULL REFERENCES cultures(id),
          depth INTEGER NOT NULL,
          PRIMARY KEY (culture_id, ancestor_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE growth_stages (
          id INTEGER PRIMARY KEY,
          culture_id TEXT NOT NULL REFERENCES cultures(id),
          position INTEGER NOT NULL,
          bbch_from INTEGER NOT NULL,
          bbch_to INTEGER NOT NULL
        )
        """,
        "CREATE INDEX growth_stages_culture ON growth_stages(culture_id, position)",
        i18n("growth_stage", key: "INTEGER", fields: "name TEXT"),
        """
        CREATE TABLE pests (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL,
          latin_name TEXT,
          eppo_code TEXT
        ) WITHOUT ROWID
        """,
        i18n("pest", fields: "name TEXT, name_key TEXT, description TEXT"),
        """
        CREATE TABLE pest_images (
          pest_id TEXT NOT NULL REFERENCES pests(id),
          position INTEGER NOT NULL,
          url TEXT NOT NULL,
          PRIMARY KEY (pest_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE products (
          id TEXT PRIMARY KEY NOT NULL,
          category TEXT NOT NULL,
          formulation TEXT,
          company_id TEXT REFERENCES companies(id),
          registration_number TEXT,
          registration_expiry TEXT,
          origin TEXT NOT NULL DEFAULT 'registered',
          original_product_id TEXT REFERENCES products(id),
          sold_out_deadline TEXT,
          exhaustion_deadline TEXT,
          signal_word TEXT REFERENCES statements(code)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX products_company ON products(company_id)",
        "CREATE INDEX products_registration ON products(registration_number)",
        i18n("product", fields: "name TEXT, name_key TEXT"),
        """
        CREATE TABLE product_ingredients (
          product_id TEXT NOT NULL REFERENCES products(id),
          position INTEGER NOT NULL,
          substance_id TEXT NOT NULL REFERENCES substances(id),
          concentration REAL,
          unit TEXT,
          PRIMARY KEY (product_id, position)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX product_ingredients_substance ON product_ingredients(substance_id)",
        """
        CREATE TABLE product_pictograms (
          product_id TEXT NOT NULL REFERENCES products(id),
          position INTEGER NOT NULL,
          code TEXT NOT NULL,
          PRIMARY KEY (product_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE product_statements (
          product_id TEXT NOT NULL REFERENCES products(id),
          position INTEGER NOT NULL,
          statement_code TEXT NOT NULL REFERENCES statements(code),
          PRIMARY KEY (product_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE product_links (
          product_id TEXT NOT NULL REFERENCES products(id),
          position INTEGER NOT NULL,
          kind TEXT NOT NULL,
          url TEXT NOT NULL,
          PRIMARY KEY (product_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE product_sections (
          id INTEGER PRIMARY KEY,
          product_id TEXT NOT NULL REFERENCES products(id),
          position INTEGER NOT NULL
        )
        """,
        "CREATE INDEX product_sections_product ON product_sections(product_id, position)",
        i18n("product_section", key: "INTEGER", fields: "title TEXT, body TEXT"),
        """
        CREATE TABLE obligations (
          id TEXT PRIMARY KEY NOT NULL
        ) WITHOUT ROWID
        """,
        i18n("obligation", fields: "text TEXT"),
        """
        CREATE TABLE uses (
          id TEXT PRIMARY KEY NOT NULL,
          product_id TEXT NOT NULL REFERENCES products(id),
          dose_from REAL,
          dose_to REAL,
          dose_unit TEXT,
          water_from REAL,
          water_to REAL,
          water_unit TEXT,
          phi_days INTEGER,
          max_applications INTEGER,
          interval_days INTEGER,
          bbch_from INTEGER,
          bbch_to INTEGER
        ) WITHOUT ROWID
        """,
        "CREATE INDEX uses_product ON uses(product_id)",
        i18n("use", fields: "application_area TEXT, notes TEXT"),
        """
        CREATE TABLE use_cultures (
          use_id TEXT NOT NULL REFERENCES uses(id),
          culture_id TEXT NOT NULL REFERENCES cultures(id),
          PRIMARY KEY (use_id, culture_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX use_cultures_culture ON use_cultures(culture_id, use_id)",
        """
        CREATE TABLE use_pests (
          use_id TEXT NOT NULL REFERENCES uses(id),
          pest_id TEXT NOT NULL REFERENCES pests(id),
          effect TEXT NOT NULL DEFAULT 'full',
          PRIMARY KEY (use_id, pest_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX use_pests_pest ON use_pests(pest_id, use_id)",
        """
        CREATE TABLE use_obligations (
          use_id TEXT NOT NULL REFERENCES uses(id),
          position INTEGER NOT NULL,
          obligation_id TEXT NOT NULL REFERENCES obligations(id),
          PRIMARY KEY (use_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE schemes (
          id TEXT PRIMARY KEY NOT NULL,
          culture_id TEXT NOT NULL REFERENCES cultures(id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX schemes_culture ON schemes(culture_id)",
        i18n("scheme", fields: "title TEXT, description TEXT"),
        """
        CREATE TABLE scheme_stages (
          id INTEGER PRIMARY KEY,
          scheme_id TEXT NOT NULL REFERENCES schemes(id),
          position INTEGER NOT NULL,
          bbch_from INTEGER NOT NULL,
          bbch_to INTEGER NOT NULL
        )
        """,
        "CREATE INDEX scheme_stages_scheme ON scheme_stages(scheme_id, position)",
        i18n("scheme_stage", key: "INTEGER", fields: "name TEXT"),
        """
        CREATE TABLE scheme_treatments (
          id INTEGER PRIMARY KEY,
          scheme_stage_id INTEGER NOT NULL REFERENCES scheme_stages(id),
          position INTEGER NOT NULL,
          product_id TEXT NOT NULL REFERENCES products(id),
          dose_from REAL,
          dose_to REAL,
          dose_unit TEXT
        )
        """,
        "CREATE INDEX scheme_treatments_stage ON scheme_treatments(scheme_stage_id, position)",
        i18n("scheme_treatment", key: "INTEGER", fields: "note TEXT"),
        """
        CREATE TABLE scheme_treatment_pests (
          scheme_treatment_id INTEGER NOT NULL REFERENCES scheme_treatments(id),
          position INTEGER NOT NULL,
          pest_id TEXT NOT NULL REFERENCES pests(id),
          PRIMARY KEY (scheme_treatment_id, position)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE regions (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL,
          latitude REAL NOT NULL,
          longitude REAL NOT NULL
        ) WITHOUT ROWID
        """,
        i18n("region", fields: "name TEXT, name_key TEXT, centre_name TEXT"),
        """
        CREATE TABLE representatives (
          id TEXT PRIMARY KEY NOT NULL,
          region_id TEXT NOT NULL REFERENCES regions(id),
          phone TEXT,
          email TEXT,
          photo TEXT,
          latitude REAL,
          longitude REAL
        ) WITHOUT ROWID
        """,
        "CREATE INDEX representatives_region ON representatives(region_id)",
        i18n("representative", fields: "name TEXT, position TEXT"),
        """
        CREATE TABLE distributors (
          id TEXT PRIMARY KEY NOT NULL,
          region_id TEXT NOT NULL REFERENCES regions(id),
          phone TEXT,
          email TEXT,
          website TEXT
        ) WITHOUT ROWID
        """,
        "CREATE INDEX distributors_region ON distributors(region_id)",
        i18n("distributor", fields: "name TEXT, address TEXT"),
        """
        CREATE TABLE news (
          id TEXT PRIMARY KEY NOT NULL,
          kind TEXT NOT NULL,
          date TEXT NOT NULL,
          image TEXT,
          source TEXT
        ) WITHOUT ROWID
        """,
        "CREATE INDEX news_date ON news(date)",
        i18n("news", fields: "title TEXT, summary TEXT, body_html TEXT"),
        // Resistance-management limits per mode-of-action group (FRAC, IRAC, HRAC), optionally
        // for one culture and the cultures under it; '' stands for every culture, so that the key
        // has no NULL. Since schema 2.
        """
        CREATE TABLE group_limits (
          scheme TEXT NOT NULL,
          group_code TEXT NOT NULL,
          culture_id TEXT NOT NULL DEFAULT '',
          max_applications INTEGER,
          max_consecutive INTEGER,
          max_share REAL,
          source TEXT NOT NULL,
          PRIMARY KEY (scheme, group_code, culture_id)
        ) WITHOUT ROWID
        """,
        // Products not to be mixed in one tank, with the reason. Since schema 2.
        """
        CREATE TABLE tank_incompatibilities (
          id TEXT PRIMARY KEY NOT NULL,
          product_id TEXT NOT NULL REFERENCES products(id),
          other_id TEXT NOT NULL REFERENCES products(id)
        ) WITHOUT ROWID
        """,
        i18n("tank_incompatibility", fields: "reason TEXT"),
        // Every name, Latin name and registration number, folded, for resolving what the
        // user types into an id.
        """
        CREATE TABLE name_index (
          kind TEXT NOT NULL,
          key TEXT NOT NULL,
          entity_id TEXT NOT NULL,
          PRIMARY KEY (kind, key, entity_id)
        ) WITHOUT ROWID
        """,
        // Folded texts for full-text search; names are read from the i18n tables.
        """
        CREATE VIRTUAL TABLE search_index USING fts5(
          kind UNINDEXED, entity_id UNINDEXED, locale UNINDEXED, title, body,
          tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
        )
        """,
    ]

    /// The statements that create tables (and the search index), in order: a builder runs
    /// these first and `indexStatements` once the rows are in.
    public static var tableStatements: [String] { statements.filter { !$0.hasPrefix("CREATE INDEX") } }

    /// The statement that creates the full-text search index.
    static var searchIndexStatement: String {
        statements.first { $0.hasPrefix("CREATE VIRTUAL TABLE search_index") } ?? ""
    }

    /// The `CREATE INDEX` statements, in order.
    public static var indexStatements: [String] { statements.filter { $0.hasPrefix("CREATE INDEX") } }

    /// `CREATE TABLE <entity>_i18n (<entity>_id, locale, fields...)`.
    static func i18n(_ entity: String, key: String = "TEXT", fields: String) -> String {
        let owner =
            ["news": "news", "company": "companies", "tank_incompatibility": "tank_incompatibilities"][entity] ?? "\(entity)s"
        return """
            CREATE TABLE \(entity)_i18n (
              \(entity)_id \(key) NOT NULL REFERENCES \(owner)(id),
              locale TEXT NOT NULL,
              \(fields),
              PRIMARY KEY (\(entity)_id, locale)
            ) WITHOUT ROWID
            """
    }

    /// The schema as one SQL script, as kept in `Database/schema.sql`.
    public static var script: String {
        "-- agro catalog schema, version \(version). Generated by `agro catalog schema`; do not edit.\n"
            + statements.map { $0 + ";\n" }.joined(separator: "\n")
    }
}
