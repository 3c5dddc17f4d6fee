{{ config(materialized='table') }}
with loans as (
    select cast(book_id as bigint) as book_id, count(*) as n from {{ source('airbyte_schema', 'loans') }} group by 1
),
holds as (
    select cast(book_id as bigint) as book_id, count(*) as n from {{ source('airbyte_schema', 'holds') }} group by 1
),
books as (
    select cast(b.book_id as bigint) as book_id, b.title, a.author_name, b.genre,
           coalesce(l.n, 0) as loan_count, coalesce(h.n, 0) as hold_count
    from {{ source('airbyte_schema', 'books') }} b
    left join {{ source('airbyte_schema', 'authors') }} a on cast(a.author_id as bigint) = cast(b.author_id as bigint)
    left join loans l on l.book_id = cast(b.book_id as bigint)
    left join holds h on h.book_id = cast(b.book_id as bigint)
)
select
    book_id, title, author_name, genre, loan_count, hold_count,
    case
        when loan_count + hold_count >= 10 then 'hot'
        when loan_count + hold_count >= 5 then 'steady'
        else 'quiet'
    end as demand_level,
    row_number() over (order by loan_count desc, hold_count desc, book_id) as popularity_rank
from books
