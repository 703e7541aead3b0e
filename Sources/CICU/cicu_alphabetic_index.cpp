// CICU: alphabetic indexes (sections), the C side of ICUKit's AlphabeticIndex.swift.
#include "cicu_bridge.h"

struct cicu_index_builder {
    std::unique_ptr<AlphabeticIndex> index;
};
struct cicu_index {
    std::unique_ptr<AlphabeticIndex::ImmutableIndex> index;
    std::vector<std::string> labels;
    std::vector<int32_t> types;
};

extern "C" {

cicu_index_builder *cicu_index_builder_open(const char *locale, const cicu_collator *collator, int32_t *status) {
    if (failed(status)) return nullptr;
    const RuleBasedCollator *rules =
        collator == nullptr ? nullptr : dynamic_cast<const RuleBasedCollator *>(collator->collator.get());
    if (collator != nullptr && rules == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<AlphabeticIndex> idx;
        if (rules == nullptr) {
            idx.reset(new AlphabeticIndex(localeOf(locale), ec));
        } else {
            // The index adopts the copy; built this way it has no labels until addLabels.
            idx.reset(new AlphabeticIndex(rules->clone(), ec));
            if (U_SUCCESS(ec)) idx->addLabels(localeOf(locale), ec);
        }
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_index_builder;
        h->index = std::move(idx);
        return h;
    })
}

void cicu_index_builder_close(cicu_index_builder *builder) { delete builder; }

void cicu_index_builder_add_locale(cicu_index_builder *builder, const char *locale, int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        builder->index->addLabels(localeOf(locale), ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

void cicu_index_builder_add_set(cicu_index_builder *builder, const char *pattern, int32_t length,
                                int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    try {
        UErrorCode ec = U_ZERO_ERROR;
        UnicodeSet set(fromUTF8(pattern, length), ec);
        if (U_SUCCESS(ec)) builder->index->addLabels(set, ec);
        if (U_FAILURE(ec)) *status = ec;
    } catch (...) {
        *status = U_INTERNAL_PROGRAM_ERROR;
    }
}

void cicu_index_builder_set_max_labels(cicu_index_builder *builder, int32_t max, int32_t *status) {
    if (failed(status)) return;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return;
    }
    UErrorCode ec = U_ZERO_ERROR;
    builder->index->setMaxLabelCount(max, ec);
    if (U_FAILURE(ec)) *status = ec;
}

cicu_index *cicu_index_build(cicu_index_builder *builder, int32_t *status) {
    if (failed(status)) return nullptr;
    if (builder == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return nullptr;
    }
    CICU_GUARD(nullptr, {
        UErrorCode ec = U_ZERO_ERROR;
        std::unique_ptr<AlphabeticIndex::ImmutableIndex> imm(builder->index->buildImmutableIndex(ec));
        if (U_FAILURE(ec)) {
            *status = ec;
            return nullptr;
        }
        auto *h = new cicu_index;
        int32_t n = imm->getBucketCount();
        for (int32_t i = 0; i < n; ++i) {
            const AlphabeticIndex::Bucket *b = imm->getBucket(i);
            std::string label;
            b->getLabel().toUTF8String(label);
            h->labels.push_back(label);
            int32_t t = CICU_LABEL_NORMAL;
            switch (b->getLabelType()) {
                case U_ALPHAINDEX_NORMAL: t = CICU_LABEL_NORMAL; break;
                case U_ALPHAINDEX_UNDERFLOW: t = CICU_LABEL_UNDERFLOW; break;
                case U_ALPHAINDEX_INFLOW: t = CICU_LABEL_INFLOW; break;
                case U_ALPHAINDEX_OVERFLOW: t = CICU_LABEL_OVERFLOW; break;
            }
            h->types.push_back(t);
        }
        h->index = std::move(imm);
        return h;
    })
}

void cicu_index_close(cicu_index *index) { delete index; }

int32_t cicu_index_bucket_count(const cicu_index *index) {
    return index == nullptr ? 0 : static_cast<int32_t>(index->labels.size());
}

int32_t cicu_index_bucket_label(const cicu_index *index, int32_t bucket, char *label, int32_t capacity,
                                int32_t *status) {
    if (failed(status)) return 0;
    if (index == nullptr || bucket < 0 || bucket >= static_cast<int32_t>(index->labels.size())) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    return copyOut(index->labels[static_cast<size_t>(bucket)], label, capacity, status);
}

int32_t cicu_index_bucket_label_type(const cicu_index *index, int32_t bucket) {
    if (index == nullptr || bucket < 0 || bucket >= static_cast<int32_t>(index->types.size())) return -1;
    return index->types[static_cast<size_t>(bucket)];
}

int32_t cicu_index_bucket_of(const cicu_index *index, const char *utf8, int32_t length, int32_t *status) {
    if (failed(status)) return 0;
    if (index == nullptr) {
        *status = U_ILLEGAL_ARGUMENT_ERROR;
        return 0;
    }
    CICU_GUARD(0, {
        UErrorCode ec = U_ZERO_ERROR;
        int32_t b = index->index->getBucketIndex(fromUTF8(utf8, length), ec);
        if (U_FAILURE(ec)) *status = ec;
        return b;
    })
}

}  // extern "C"
