{{ config(materialized='table') }}
with delivered as (
    select cast(shipment_id as bigint) as shipment_id, min(cast(cast(event_at as timestamp) as date)) as delivered_on
    from {{ source('airbyte_schema', 'delivery_events') }}
    where event_type = 'delivered'
    group by 1
),
parcels as (
    select cast(shipment_id as bigint) as shipment_id, count(*) as parcel_count,
           sum(cast(weight_kg as decimal(10, 1))) as total_weight_kg
    from {{ source('airbyte_schema', 'parcels') }} group by 1
)
select
    cast(s.shipment_id as bigint) as shipment_id,
    c.carrier_name,
    coalesce(p.parcel_count, 0) as parcel_count,
    round(coalesce(p.total_weight_kg, 0), 1) as total_weight_kg,
    cast(r.distance_km as bigint) as route_distance_km,
    d.delivered_on,
    date_diff('day', cast(s.shipped_on as date), d.delivered_on) as transit_days,
    case
        when d.delivered_on is null then 'undelivered'
        when d.delivered_on > cast(s.promised_on as date) then 'late'
        else 'on_time'
    end as delivery_status
from {{ source('airbyte_schema', 'shipments') }} s
left join {{ source('airbyte_schema', 'carriers') }} c on cast(c.carrier_id as bigint) = cast(s.carrier_id as bigint)
left join parcels p on p.shipment_id = cast(s.shipment_id as bigint)
left join delivered d on d.shipment_id = cast(s.shipment_id as bigint)
left join {{ source('airbyte_schema', 'routes') }} r
  on cast(r.origin_depot_id as bigint) = cast(s.origin_depot_id as bigint)
 and cast(r.destination_depot_id as bigint) = cast(s.destination_depot_id as bigint)
